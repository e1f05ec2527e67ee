export type { MovementAnswer } from './api/movement-answer';
export type { NetworkRawData } from './api/network-raw-data';
export { DUPLICATE_ORIGIN_ID } from './api/transfer-request.endpoint';
export * from './certs/certificate-files';
export * from './certs/dev-certificates';
export { SandboxEnvError, type SandboxProcessOptions, sandboxOptionsFromEnv } from './config/options-from-env';
export {
  DEFAULT_SANDBOX_CONFIG,
  DUPLICATE_MODES,
  type DuplicateMode,
  type FaultSettings,
  type PollingRules,
  type SandboxConfig,
  type SandboxConfigPatch,
  type ScenarioTimings,
} from './config/sandbox-config';
export { DEFAULT_SANDBOX_CREDENTIALS, type SandboxCredentials } from './config/sandbox-credentials';
export { FAULT_KINDS, type FaultKind } from './faults/fault-decision';
export type { SandboxCounters } from './ledger/counters';
export type { LedgerEntry, LedgerPage, SandboxLedger } from './ledger/ledger';
export type { LookupRecord } from './ledger/lookup-log';
export {
  type SandboxBank,
  type SandboxBankOptions,
  SandboxConfigError,
  type SandboxTls,
  startSandboxBank,
} from './sandbox-bank';
