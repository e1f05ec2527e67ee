// Builds @giro/admin's operator console: packages/admin/console (TypeScript + TSX, Preact) bundled by esbuild into
// packages/admin/dist/console — index.html, app.js (Preact included) and app.css. Nothing is fetched at run time:
// no CDN, no inline script or style (the console's Content-Security-Policy allows neither). index.html names each
// file with its version (`app.js?v=<first 16 hex of its sha-256>`), so the server can let browsers keep them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const version = (content) => createHash('sha256').update(content).digest('hex').slice(0, 16);

/** Bundles `<pkg>/console/app.tsx` into `<pkg>/dist/console`; returns the files written. */
export async function buildConsole(pkg) {
  const source = join(pkg, 'console');
  const out = join(pkg, 'dist', 'console');
  mkdirSync(out, { recursive: true });
  await build({
    absWorkingDir: pkg,
    entryPoints: [join(source, 'app.tsx')],
    outdir: out,
    bundle: true,
    minify: true,
    format: 'iife',
    // What the back office's browsers run: the last few years of Chrome, Edge, Firefox and Safari.
    target: ['chrome109', 'edge109', 'firefox115', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(source, 'tsconfig.json'),
  });
  const appJs = readFileSync(join(out, 'app.js'));
  const appCss = readFileSync(join(out, 'app.css'));
  const page = readFileSync(join(source, 'index.html'), 'utf8')
    .replace('console/app.js', `console/app.js?v=${version(appJs)}`)
    .replace('console/app.css', `console/app.css?v=${version(appCss)}`);
  writeFileSync(join(out, 'index.html'), page);
  return ['index.html', 'app.js', 'app.css'];
}
