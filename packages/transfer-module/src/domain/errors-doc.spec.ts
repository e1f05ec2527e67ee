import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from './error-codes';
import { errorsDoc } from './errors-doc';

const PAGE = join(__dirname, '../../../../docs/errors.md');

describe('docs/errors.md', () => {
  it('is what the declared codes and rules make of it (run `node scripts/errors-doc.mjs` after a change)', () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(errorsDoc());
  });

  it('lists every code with its status', () => {
    const page = errorsDoc();
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(page).toMatch(new RegExp(`^\\| \`${code}\` +\\| ${status} +\\| `, 'm'));
    }
  });
});
