// Writes docs/errors.md from the error codes and violation rules the transfer module declares
// (packages/transfer-module/src/domain/error-codes.ts, violation-rules.ts). Run after `pnpm build:js`;
// a spec (errors-doc.spec.ts) fails when the page is stale.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { errorsDoc } = createRequire(import.meta.url)(join(root, 'packages/transfer-module/dist/domain/errors-doc.js'));
writeFileSync(join(root, 'docs/errors.md'), errorsDoc());
