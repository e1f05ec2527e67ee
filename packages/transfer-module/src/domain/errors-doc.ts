import { ERROR_CODES } from './error-codes';
import { VIOLATION_RULES } from './violation-rules';

// docs/errors.md, made from ERROR_CODES and VIOLATION_RULES: `node scripts/errors-doc.mjs` writes it, and a spec
// fails when the page differs from what this makes of the code.

const escapePipes = (text: string) => text.replace(/\|/g, '\\|');

/** A Markdown table, its columns padded as the repository's formatter (Biome) lays them out. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

/** The text of docs/errors.md. */
export function errorsDoc(): string {
  const codes = table(
    ['code', 'HTTP status', 'meaning'],
    Object.entries(ERROR_CODES).map(([code, { status, doc }]) => [`\`${code}\``, String(status), escapePipes(doc)]),
  );
  const rules = table(
    ['rule', 'params', 'meaning'],
    Object.entries(VIOLATION_RULES).map(([rule, { params, doc }]) => [
      `\`${rule}\``,
      escapePipes(params),
      escapePipes(doc),
    ]),
  );
  return [
    '# Errors',
    '',
    '<!-- Generated from packages/transfer-module/src/domain/error-codes.ts and violation-rules.ts by',
    '     `node scripts/errors-doc.mjs` (after `pnpm build:js`); a spec fails when this page is stale. -->',
    '',
    "Every error answer of the admin API (and of the reconciler's server) has one body:",
    '',
    '```json',
    '{',
    '  "statusCode": 400,',
    '  "code": "VALIDATION_FAILED",',
    '  "message": "body.amount must be at most 1000000.00, got 2000000",',
    '  "violations": [',
    '    {',
    '      "field": "body.amount",',
    '      "rule": "max",',
    '      "params": { "max": "1000000.00", "value": "2000000" },',
    '      "message": "must be at most 1000000.00, got 2000000"',
    '    }',
    '  ]',
    '}',
    '```',
    '',
    '`code` is stable: a program acts on it, never on `message`, which is English for people reading logs.',
    '`violations` comes with the refusals of an input: each names the `field` (a dotted path; `""` is the request as',
    'a whole), its `rule` and the `params` its message is built from, so that a client can say it in its own',
    'language. Some answers carry more fields, listed beside their code (`originId`, `retryAt`…); `error` (the',
    "status's name) and `errorName` (the error's class in the transfer module) come along too. In code, every",
    'error the admin API answers is a `GiroError` (`@giro/transfer-module`) with its `code` and `httpStatusCode`.',
    '',
    '## Codes',
    '',
    ...codes,
    '',
    '## Violation rules',
    '',
    "The admin API's query and path parameters are checked by class-validator, with its rules (`isInt`, `min`, `max`,",
    '`isIn`, `isLength`…): `min` and `minLength` carry `min`, `max` and `maxLength` `max`, `isLength` both, `isIn`',
    '`allowed`, the others no params. The rules of the domain follow.',
    '',
    ...rules,
    '',
  ].join('\n');
}
