import { ApiKeyService, ROLES } from '@giro/transfer-module';
import { startTestReconciler, type TestReconciler } from '@test-support/reconciler-harness';
import fc from 'fast-check';

// The keys' routes, fuzzed (an in-process reconciler over HTTP, SQLite): any JSON body to POST /admin/keys and any
// name to POST /admin/keys/:name/revoke are answered 201/200, or a 4xx naming the field — never a 5xx; a key is made
// only from a valid { name, role } and never shows a secret anywhere else.

/** What a key's name may be: a person's or a system's name, composed (NFC). */
const NAME = /^(?=.{1,64}$)[\p{L}\p{N}][\p{L}\p{M}\p{N}._'-]*(?: [\p{L}\p{M}\p{N}._'-]+)*$/u;
const isName = (text: string) => NAME.test(text) && text === text.normalize('NFC');
/** Names made to be valid, as people write them (the generator reads a plain pattern). */
const MADE_NAME = /^[a-zA-Z0-9ñáéíóúÑÁÉÍÓÚ][a-zA-Z0-9ñáéíóú._'-]{0,30}( [a-zA-Zñáéíóú]{1,12}){0,2}$/;
/** Names of the actors that are not keys, and names shaped like a key's id. */
const isTaken = (name: string) => ['admin-token', 'cli'].includes(name) || /^([0-9a-f]{16}$|giro_)/.test(name);

describe('bad input to the admin API keys', () => {
  let r: TestReconciler;
  let made = 0;

  beforeAll(async () => {
    r = await startTestReconciler({ adminRateLimitPerMinute: 100_000 });
  });
  afterAll(async () => {
    await r?.close();
    console.log(`admin keys fuzz: ${made} keys made from valid requests; every other answer a 4xx naming its field`);
  });

  const keysStored = async () => (await r.app.get(ApiKeyService).listKeys()).length;

  const name = fc.oneof(
    fc.stringMatching(MADE_NAME),
    fc.string({ maxLength: 80 }),
    fc.constantFrom(
      'admin-token',
      'cli',
      '0123456789abcdef',
      'giro_ops',
      'x'.repeat(65),
      'Ana Gómez',
      '-a',
      '',
      ' ops',
      'a  b',
      '__proto__',
    ),
    fc.anything(),
  );
  const role = fc.oneof(fc.constantFrom(...ROLES), fc.string({ maxLength: 12 }), fc.anything());
  const body = fc.oneof(
    { weight: 3, arbitrary: fc.record({ name: fc.stringMatching(MADE_NAME), role: fc.constantFrom(...ROLES) }) },
    fc.record({ name, role }),
    fc.record({ name, role, extra: fc.anything() }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.anything(), { maxKeys: 4 }),
    fc.anything(),
  );

  it('answers POST /admin/keys with 201 for a valid { name, role } only, else 400/409 naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const before = await keysStored();
        const rawBody = JSON.stringify(input) ?? 'null';
        const answer = await r.request('POST', '/admin/keys', { rawBody });
        expect(answer.status).toBeLessThan(500);
        // Judged on what went over the wire: JSON drops a key whose value is undefined ({ extra: undefined }).
        const sent: unknown = JSON.parse(rawBody);
        const valid =
          typeof sent === 'object' &&
          sent !== null &&
          !Array.isArray(sent) &&
          Object.keys(sent).length === 2 &&
          typeof (sent as { name?: unknown }).name === 'string' &&
          isName((sent as { name: string }).name) &&
          !isTaken((sent as { name: string }).name) &&
          (ROLES as readonly unknown[]).includes((sent as { role?: unknown }).role);
        if (answer.status === 201) {
          expect(valid).toBe(true);
          made += 1;
          expect(await keysStored()).toBe(before + 1);
          return;
        }
        expect(await keysStored()).toBe(before);
        if (answer.status === 409) {
          expect(answer.json).toMatchObject({ name: (input as { name: string }).name });
          return;
        }
        expect(valid).toBe(false);
        expect(answer.status).toBe(400);
        expect(answer.json.violations.length).toBeGreaterThan(0);
        for (const violation of answer.json.violations) expect(violation.rule).toMatch(/^\w+$/);
      }),
      { numRuns: 200 },
    );
  });

  it('answers POST /admin/keys/:name/revoke with 200 for a stored key, else 400 or 404 — never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          name.filter((n): n is string => typeof n === 'string'),
          fc.string(),
        ),
        async (text) => {
          const answer = await r.request('POST', `/admin/keys/${encodeURIComponent(text)}/revoke`);
          expect([200, 400, 404]).toContain(answer.status);
          if (answer.status === 400) expect(answer.json.violations[0]).toMatchObject({ field: 'name' });
        },
      ),
      { numRuns: 150 },
    );
  });
});
