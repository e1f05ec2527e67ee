export {
  ApiKeyService,
  type ApiKeyServiceOptions,
  type ApiKeyView,
  type CreatedApiKey,
  toApiKeyView,
} from './api-key.service';
export { API_KEY_CACHE_ENTRIES, API_KEY_CACHE_MS, ApiKeyCache } from './api-key-cache';
export { ApiKeyValidationError } from './api-key-validation.error';
export { type AuditCallOptions, AuditService, type AuditView, toAuditView } from './audit.service';
