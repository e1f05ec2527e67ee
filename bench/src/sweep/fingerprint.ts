import { dirname, join } from 'node:path';

// The sweep backlog is seeded straight into giro's tables, each row as the store writes it, so the bench needs
// one internal of the transfer module that the package does not export: the intent fingerprint. It reads it from
// the workspace's build by path, as it starts the sandbox's (a package's exports map applies to its name, not to
// paths).
type TransferModuleDomain = typeof import('@giro/transfer-module/domain');

const transferModuleDir = dirname(require.resolve('@giro/transfer-module/package.json'));

export const { intentFingerprint } = require(join(transferModuleDir, 'dist', 'domain')) as TransferModuleDomain;
