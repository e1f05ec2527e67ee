import { movementAnswer } from '@giro/transfer-module/bank/testing/bank-fixtures';
import fc from 'fast-check';

// Bad answers a bank might give: broken JSON, HTML error pages, missing or mistyped fields, unknown statuses,
// movements about another originId or another account (thisSubAccount), bodies too large to read, connections cut or left hanging. None of them
// is a well-formed answer with a final status for the movement asked about, so none may make it final. Valid
// answers with a non-final status are mixed in, so movements also move between non-final states.

export type BankAnswer =
  | {
      kind: string;
      mode: 'respond';
      status: number;
      headers: Record<string, string>;
      body: (originId: number) => string;
    }
  /** Headers and half the body, then the connection is cut. */
  | { kind: string; mode: 'cut-mid-body'; body: (originId: number) => string }
  /** The connection is cut before any answer. */
  | { kind: 'cut before answering'; mode: 'cut' }
  /** No answer at all (the client gives up). */
  | { kind: 'hang'; mode: 'hang' };

const JSON_TYPE = { 'content-type': 'application/json' };
const nonFinal = fc.constantFrom('CREATED', 'IN_PROGRESS', 'DELAYED');
const final = fc.constantFrom('COMPLETED', 'FAILED');

const json = (value: (originId: number) => unknown) => (originId: number) => JSON.stringify(value(originId));

/** An account that is not the one the fuzzed transfers are sent from. */
const OTHER_ACCOUNT = '0000003100010000000001';

/** `thisSubAccount` naming `address` (of any type), with its holder. */
export function subAccount(address: unknown) {
  return {
    owners: { personId: '30712345671', personIdType: 'CUI', personName: 'Giro SA', personType: 'COMPANY' },
    accountRouting: { addressType: 'CVU', address },
  };
}

/** Bodies of a 2xx answer that must not make the movement final. */
const badBodies: fc.Arbitrary<{ kind: string; body: (originId: number) => string }> = fc.oneof(
  nonFinal.map((status) => ({ kind: `valid ${status}`, body: json((id) => movementAnswer(id, status)) })),
  fc
    .constantFrom<unknown>(
      'completed',
      'COMPLETED ',
      ' FAILED',
      'Completed',
      'SUCCESS',
      'ACREDITADA',
      'FAILED\u0000',
      '',
    )
    .map((status) => ({ kind: 'unknown status', body: json((id) => ({ ...movementAnswer(id), status })) })),
  fc
    .constantFrom<unknown>(0, 1, true, null, ['COMPLETED'], { value: 'COMPLETED' })
    .map((status) => ({ kind: 'status of the wrong type', body: json((id) => ({ ...movementAnswer(id), status })) })),
  final.map((status) => ({
    kind: 'status missing (only inside details)',
    body: json((id) => {
      const { status: _omitted, ...rest } = movementAnswer(id);
      return { ...rest, details: { ...rest.details, status } };
    }),
  })),
  fc
    .tuple(
      final,
      fc.constantFrom<[string, unknown]>(
        ['id', 12345],
        ['id', ''],
        ['details', 'COMPLETED'],
        ['details', ['COMPLETED']],
      ),
    )
    .map(([status, [field, value]]) => ({
      kind: `${field} of the wrong type`,
      body: json((id) => ({ ...movementAnswer(id, status), [field]: value })),
    })),
  fc
    .tuple(
      final,
      fc.constantFrom<[string, unknown]>(
        ['originId', '1001'],
        ['originId', -1],
        ['originId', 1.5],
        ['networkId', 42],
        ['networkId', ''],
        ['amount', '1234.50'],
        ['amount', -5],
        ['amount', 1.234],
        ['amount', 'NaN'],
        ['amountCurrency', 32],
        ['amountCurrency', ''],
        ['amountCurrency', ['032']],
      ),
    )
    .map(([status, [field, value]]) => ({
      kind: `details.${field} of the wrong type`,
      body: json((id) => movementAnswer(id, status, { [field]: value })),
    })),
  final.map((status) => ({
    kind: 'a movement about another originId',
    body: json((id) => movementAnswer(id + 1, status)),
  })),
  final.map((status) => ({
    kind: 'a movement about another account (thisSubAccount)',
    body: json((id) => ({ ...movementAnswer(id, status), thisSubAccount: subAccount(OTHER_ACCOUNT) })),
  })),
  fc
    .tuple(
      final,
      fc.constantFrom<unknown>('mine', ['CVU'], { accountRouting: OTHER_ACCOUNT }, subAccount(3100010000000001)),
    )
    .map(([status, thisSubAccount]) => ({
      kind: 'thisSubAccount of the wrong type',
      body: json((id) => ({ ...movementAnswer(id, status), thisSubAccount })),
    })),
  fc.tuple(final, fc.double({ min: 0.05, max: 0.95, noNaN: true })).map(([status, fraction]) => ({
    kind: 'truncated JSON',
    body: (id: number) => {
      const text = JSON.stringify(movementAnswer(id, status));
      return text.slice(0, Math.floor(text.length * fraction));
    },
  })),
  final.map((status) => ({
    kind: 'JSON larger than the client reads (1 MiB)',
    body: json((id) => ({ ...movementAnswer(id, status), padding: 'x'.repeat(1_200_000) })),
  })),
  final.map((status) => ({
    kind: 'the movement wrapped in another object',
    body: json((id) => ({ data: movementAnswer(id, status) })),
  })),
  final.map((status) => ({ kind: 'a list of movements', body: json((id) => [movementAnswer(id, status)]) })),
  final.map((status) => ({ kind: 'a JSON string', body: json(() => status) })),
  fc.json().map((text) => ({ kind: 'arbitrary JSON', body: () => text })),
  fc.string({ unit: 'binary' }).map((text) => ({ kind: 'arbitrary text', body: () => text })),
  fc.constant({ kind: 'empty body', body: () => '' }),
);

const htmlPage = final.map((status) => ({
  kind: 'HTML error page',
  body: () => `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>${status}</h1></body></html>`,
}));

const retryAfter = fc.constantFrom('1', '0', '-5', 'soon', '2', 'Wed, 21 Oct 2015 07:28:00 GMT');

function respond(
  statuses: fc.Arbitrary<number>,
  bodies: fc.Arbitrary<{ kind: string; body: (originId: number) => string }>,
  headers: fc.Arbitrary<Record<string, string>> = fc.constant(JSON_TYPE),
): fc.Arbitrary<BankAnswer> {
  return fc.tuple(statuses, bodies, headers).map(([status, { kind, body }, extra]) => ({
    kind: `${status} ${kind}`,
    mode: 'respond' as const,
    status,
    headers: extra,
    body,
  }));
}

/** Answers that are never a reason to make a movement final, whatever the operation. */
const neverFinal: fc.Arbitrary<BankAnswer>[] = [
  respond(fc.constantFrom(200, 201, 202), badBodies),
  respond(fc.constantFrom(200, 500, 502, 503), htmlPage, fc.constant({ 'content-type': 'text/html' })),
  respond(fc.constantFrom(500, 502, 503, 504, 408, 401, 403, 301, 302), badBodies),
  respond(
    fc.constant(429),
    badBodies,
    retryAfter.map((value) => ({ ...JSON_TYPE, 'retry-after': value })),
  ),
  badBodies.map(({ kind, body }) => ({ kind: `cut mid-body: ${kind}`, mode: 'cut-mid-body' as const, body })),
  fc.constant({ kind: 'cut before answering' as const, mode: 'cut' as const }),
  fc.constant({ kind: 'hang' as const, mode: 'hang' as const }),
];

/**
 * Answers to a creation request. A 4xx business rejection (and a 409 on a first send) legitimately makes a
 * transfer FAILED, so those are left out here.
 */
export const creationAnswer: fc.Arbitrary<BankAnswer> = fc.oneof(...neverFinal);

/** Answers to a lookup: any 4xx too (a lookup's 4xx never makes a movement final). */
export const lookupAnswer: fc.Arbitrary<BankAnswer> = fc.oneof(
  ...neverFinal,
  respond(fc.constantFrom(400, 404, 409, 410, 422), badBodies),
  respond(
    fc.constant(404),
    fc.constant({ kind: 'MOVEMENT_NOT_FOUND', body: json(() => ({ code: 'MOVEMENT_NOT_FOUND', message: 'no' })) }),
  ),
);
