// Writes packages/client/admin-openapi.json: the OpenAPI document a reconciler serves at /docs-json, from which
// @giro/client's types are generated at build (scripts/build.mjs, openapi-typescript). Run after `pnpm build:js`
// (`pnpm docs:openapi` does both); a spec (test/client-openapi.e2e-spec.ts) fails when the file is stale.
//
// The reconciler is built in this process, never started: no sweep, no bank call (the bank's address is never
// reached), a database in a temporary folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { createReconcilerApp, reconcilerConfigFromEnv } = require(join(root, 'apps/reconciler/dist/index.js'));
const { createDevCertificates } = require(join(root, 'apps/sandbox-bank/dist/certs/dev-certificates.js'));

const dir = mkdtempSync(join(tmpdir(), 'giro-openapi-'));
try {
  const adminToken = 'openapi-document-token-0123456789';
  const config = reconcilerConfigFromEnv({
    DATABASE_URL: `sqlite:${join(dir, 'giro.sqlite')}`,
    ADMIN_TOKEN: adminToken,
  });
  const certs = await createDevCertificates();
  const app = await createReconcilerApp({
    config,
    bank: {
      baseUrl: 'https://bank.invalid',
      tls: { ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key },
      auth: { token: 'unused' },
    },
    adminToken,
    scheduleSweeps: false,
    logDestination: { write: () => true },
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address();
  const document = await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json();
  await app.close();
  writeFileSync(join(root, 'packages/client/admin-openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  console.log('admin-openapi: packages/client/admin-openapi.json written');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
