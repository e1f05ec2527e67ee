import helmet from 'helmet';

/**
 * Security headers on every answer, `/docs` included (helmet): no `X-Powered-By`, `X-Content-Type-Options:
 * nosniff`, no framing (`X-Frame-Options: DENY`, `frame-ancestors 'none'`) and a Content Security Policy under
 * which the Swagger UI at `/docs` still works: its scripts are files of this origin (`script-src 'self'`), its
 * styles and images inline or `data:`, which helmet's default policy allows.
 *
 * `upgrade-insecure-requests` is left out: on plain HTTP (a private network, a proxy terminating TLS in front)
 * it would make browsers fetch `/docs`' own scripts over an HTTPS port that is not there.
 */
export function securityHeaders(): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: { directives: { 'frame-ancestors': ["'none'"], 'upgrade-insecure-requests': null } },
    frameguard: { action: 'deny' },
  });
}
