import { completeCbuCvu, completeCuit } from '@giro/transfer-module';

/** A sandbox scenario, picked by a tag in `body.description` (apps/sandbox-bank README). */
export interface DemoScenario {
  tag: '' | '[fail]' | '[delay]' | '[reject]' | '[lost]';
  /** What the reconciler should end with, for the summary. */
  expected: 'COMPLETED' | 'FAILED';
  explains: string;
}

export const DEMO_SCENARIOS: readonly DemoScenario[] = [
  { tag: '', expected: 'COMPLETED', explains: 'CREATED → IN_PROGRESS → COMPLETED' },
  { tag: '[fail]', expected: 'FAILED', explains: 'the bank fails it: FAILED, with a cancellation to register' },
  { tag: '[delay]', expected: 'COMPLETED', explains: 'DELAYED (polled at the longer interval), then COMPLETED' },
  { tag: '[reject]', expected: 'FAILED', explains: 'refused at creation (4xx): FAILED at once, with a cancellation' },
  {
    tag: '[lost]',
    expected: 'COMPLETED',
    explains: 'the creation answer is lost: resolved by lookup, never sent twice',
  },
];

/** How many transfers of each scenario the demo sends: mostly plain ones, as in real life. */
const COPIES: Record<DemoScenario['tag'], number> = { '': 4, '[fail]': 1, '[delay]': 2, '[reject]': 1, '[lost]': 2 };

function cuit(first10: string): string {
  const value = completeCuit(first10);
  if (value === undefined) throw new Error(`no valid CUIT starts with ${first10}`);
  return value;
}

/** Accounts with valid check digits, for the demo (the admin API's OpenAPI example names the same ones). */
export const DEMO_PAYER = {
  addressType: 'CBU_CVU',
  address: completeCbuCvu('0000003', '1000000000017'),
  owner: { personIdType: 'CUI', personId: cuit('3071234567') },
} as const;

export const DEMO_PAYEES = [
  { address: completeCbuCvu('2850590', '9400900418135'), personId: cuit('2012345678') },
  { address: completeCbuCvu('0170099', '2200000678901'), personId: cuit('2734567890') },
  { address: completeCbuCvu('0110599', '5400000123456'), personId: cuit('3365432108') },
];

export interface DemoTransfer {
  scenario: DemoScenario;
  /** The transfer request (docs/bank-api.md#request-fields) without an originId: the reconciler allocates one. */
  request: {
    from: typeof DEMO_PAYER;
    to: { addressType: 'CBU_CVU'; address: string; owner: { personIdType: 'CUI'; personId: string } };
    body: { currencyId: '032'; amount: string; description: string; concept: 'VAR' | 'ALQ' | 'HON' };
  };
}

const CONCEPTS = ['VAR', 'ALQ', 'HON'] as const;

/** The demo batch: every sandbox scenario, amounts as decimal strings (the admin API accepts both forms). */
export function demoBatch(): DemoTransfer[] {
  const transfers: DemoTransfer[] = [];
  for (const scenario of DEMO_SCENARIOS) {
    for (let copy = 1; copy <= COPIES[scenario.tag]; copy++) {
      const n = transfers.length;
      const payee = DEMO_PAYEES[n % DEMO_PAYEES.length] as (typeof DEMO_PAYEES)[number];
      const label = scenario.tag === '' ? 'plain' : scenario.tag.slice(1, -1);
      transfers.push({
        scenario,
        request: {
          from: DEMO_PAYER,
          to: {
            addressType: 'CBU_CVU',
            address: payee.address,
            owner: { personIdType: 'CUI', personId: payee.personId },
          },
          body: {
            currencyId: '032',
            amount: `${1000 + n * 250}.${String(n * 7)
              .padStart(2, '0')
              .slice(-2)}`,
            description: `giro demo ${label} #${copy} ${scenario.tag}`.trim(),
            concept: CONCEPTS[n % CONCEPTS.length] as (typeof CONCEPTS)[number],
          },
        },
      });
    }
  }
  return transfers;
}
