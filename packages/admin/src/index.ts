// The public API of @giro/admin: what a host application uses to serve giro's admin REST API. Everything else
// (the controllers, the guard, the pipe, the filter) is internal and may change in any release. A spec pins this
// list (`public-api.spec.ts`): a change here is always a deliberate one.
export { actorOf, GIRO_ACTOR_PROPERTY } from './admin-actor';
export { AdminAuthentication } from './admin-authentication';
export { type AdminOpenApiOptions, setupAdminOpenApi } from './admin-openapi';
export { RequiresRole } from './admin-role.decorator';
export type { ErrorBody } from './error-body';
export { SweepUnavailableError } from './sweep-unavailable.error';
export { TransferAdminModule } from './transfer-admin.module';
export {
  type AdminSweepRunner,
  type TransferAdminModuleOptions,
  TransferAdminModuleOptionsError,
} from './transfer-admin.options';
export { type ErrorReply, errorReply, writeErrorReply } from './transfer-errors.filter';
