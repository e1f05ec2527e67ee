// The public API of @giro/admin: what a host application uses to serve giro's admin REST API. Everything else
// (the controllers, the guard, the pipe, the filter) is internal and may change in any release. A spec pins this
// list (`public-api.spec.ts`): a change here is always a deliberate one.
export { actorOf, GIRO_ACTOR_PROPERTY } from './shared/http/admin-actor';
export { AdminAuthentication } from './shared/http/admin-authentication';
export { type AdminOpenApiOptions, setupAdminOpenApi } from './shared/http/admin-openapi';
export { AdminRefusalAudit } from './shared/http/admin-refusal-audit';
export { RequiresRole } from './shared/http/admin-role.decorator';
export type { ErrorBody } from './shared/http/error-body';
export { REDACTED, SecretRedactor } from './shared/http/secret-redactor';
export { ambiguityViolations, readJsonText } from './shared/http/strict-json';
export { type ErrorReply, errorReply, writeErrorReply } from './shared/http/transfer-errors.filter';
export { SweepUnavailableError } from './sweep/sweep-unavailable.error';
export { TransferAdminModule } from './transfer-admin.module';
export {
  type AdminSweepRunner,
  type TransferAdminModuleOptions,
  TransferAdminModuleOptionsError,
} from './transfer-admin.options';
