import { fail } from './option-checks';

/** The version is the first path segment (docs/bank-api.md#versioning): a new one is a setting, not a code change. */
export const DEFAULT_PATH_PREFIX = '/v2/apibank';

export interface BankPaths {
  transferRequest: string;
  getMovement: string;
}

const PREFIX_PATTERN = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * The two operation paths: the base URL's own path (a gateway may mount the API below `/`), then the
 * prefix, then the operation.
 */
export function bankPaths(basePath: string, prefix: string, optionName: string): BankPaths {
  const trimmed = prefix.replace(/\/+$/, '');
  if (!PREFIX_PATTERN.test(trimmed) || trimmed.split('/').some((segment) => segment === '.' || segment === '..')) {
    fail(optionName, 'must be a path like /v2/apibank (segments of letters, digits, ".", "_", "~", "-")');
  }
  const root = `${basePath.replace(/\/+$/, '')}${trimmed}`;
  return {
    transferRequest: `${root}/movements/transfer-request`,
    getMovement: `${root}/movements/get-movement`,
  };
}
