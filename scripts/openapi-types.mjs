// @giro/client's types, generated from the admin API's OpenAPI document (admin-openapi.json in the package, which
// scripts/admin-openapi.mjs writes from a reconciler) by openapi-typescript into src/generated/admin-api.ts, before
// the package's source is compiled (scripts/build.mjs). Types only: the module compiles to nothing at run time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const OPENAPI_DOCUMENT = 'admin-openapi.json';

/** Writes `pkg`/src/generated/admin-api.ts from `pkg`/admin-openapi.json; returns the path written. */
export async function generateOpenApiTypes(pkg) {
  const ast = await openapiTS(pathToFileURL(join(pkg, OPENAPI_DOCUMENT)), { alphabetize: true });
  const header = '// Generated at build by scripts/openapi-types.mjs from admin-openapi.json: do not edit.\n';
  const out = join(pkg, 'src', 'generated', 'admin-api.ts');
  mkdirSync(join(pkg, 'src', 'generated'), { recursive: true });
  writeFileSync(out, header + astToString(ast));
  return out;
}
