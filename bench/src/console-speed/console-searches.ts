import Database from 'better-sqlite3';

// What an operator types into the transfers page's search form, built from movements of the seeded history
// picked at random (so each value exists, and popular accounts come up as often as they are popular).

/** The form's fields (packages/admin/console/pages/transfers.tsx: `#filter-<name>`), as typed by a person. */
export const FORM_FIELDS = [
  'createdFrom',
  'createdTo',
  'amountMin',
  'amountMax',
  'from',
  'to',
  'cuit',
  'originId',
  'networkId',
  'text',
] as const;

export type FormField = (typeof FORM_FIELDS)[number];

/** One search as filled in: the status chosen (`''`: any) and the text fields typed (the rest left empty). */
export interface FormFill {
  status: string;
  fields: Partial<Record<FormField, string>>;
}

export interface SampledMovement {
  originId: number;
  networkId: string | null;
  amountCents: number;
  toAddress: string;
  toPersonId: string;
  createdAtMs: number;
  description: string;
}

/** One kind of search: the form for its i-th run. */
export interface ConsoleSearchKind {
  name: string;
  fill(i: number): FormFill;
}

/** A small seeded generator (mulberry32): the same sample from run to run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` movements of the SQLite history `file` (originIds `firstOriginId` on), picked at random. */
export function sampleMovements(
  file: string,
  firstOriginId: number,
  movements: number,
  count: number,
): SampledMovement[] {
  const random = seededRandom(2121);
  const ids = Array.from({ length: count }, () => firstOriginId + Math.floor(random() * movements));
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT origin_id, network_id, amount_cents, to_address, to_person_id, created_at_ms, description
         FROM giro_movements WHERE origin_id IN (${ids.map(() => '?').join(', ')})`,
      )
      .all(...ids) as Record<string, string | number | null>[];
    const byId = new Map(rows.map((row) => [Number(row.origin_id), row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      return [
        {
          originId: id,
          networkId: row.network_id === null ? null : String(row.network_id),
          amountCents: Number(row.amount_cents),
          toAddress: String(row.to_address),
          toPersonId: String(row.to_person_id),
          createdAtMs: Number(row.created_at_ms),
          description: String(row.description ?? ''),
        },
      ];
    });
  } finally {
    db.close();
  }
}

/** Cents as a person in Argentina types an amount: `1.234,50`. */
export function typedAmount(cents: number): string {
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${whole},${String(cents % 100).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;
/** Buenos Aires is UTC−3 all year. */
const BUENOS_AIRES_OFFSET_MS = 3 * 3_600_000;

/** The Buenos Aires day `days` before the one holding `atMs`, as a person in Argentina types it (`dd/mm/aaaa`). */
export function buenosAiresDate(atMs: number, daysBefore = 0): string {
  const [year, month, day] = new Date(atMs - BUENOS_AIRES_OFFSET_MS - daysBefore * DAY_MS)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
}

/** Statuses an operator filters by, in turn (each search a different one). */
const STATUS_ROTATION = ['FAILED', 'REJECTED', 'COMPLETED', 'IN_PROGRESS', 'DELAYED', 'AWAITING_APPROVAL', 'PENDING'];
/** Words of the seeded descriptions (bench/src/search/search-seed-sql.ts), common to rare; lower case as typed. */
const WORDS = ['alquiler', 'honorarios', 'sueldo', 'proveedores', 'expensas', 'servicios', 'cuota', 'reintegro'];
const RARE_WORD = 'embargo';
const INVOICE = /A-0001-\d{8}/;

const none: FormFill['fields'] = {};

/** The searches the bench times, one kind per thing an operator knows (and a few together). */
export function consoleSearchKinds(samples: readonly SampledMovement[]): ConsoleSearchKind[] {
  if (samples.length === 0) throw new Error('consoleSearchKinds: no sampled movements');
  const at = (i: number) => samples[i % samples.length];
  const answered = samples.filter((sample) => sample.networkId !== null);
  const invoices = samples.flatMap((sample) => sample.description.match(INVOICE) ?? []);
  const range = (cents: number) => ({ amountMin: typedAmount(cents), amountMax: typedAmount(Math.round(cents * 1.5)) });
  return [
    {
      name: 'exact amount',
      fill: (i) => ({
        status: '',
        fields: { amountMin: typedAmount(at(i).amountCents), amountMax: typedAmount(at(i).amountCents) },
      }),
    },
    { name: 'amount range (x to 1.5 x)', fill: (i) => ({ status: '', fields: range(at(i).amountCents) }) },
    { name: 'destination account', fill: (i) => ({ status: '', fields: { to: at(i).toAddress } }) },
    { name: "CUIT (a destination's)", fill: (i) => ({ status: '', fields: { cuit: at(i).toPersonId } }) },
    {
      name: 'status (each in turn)',
      fill: (i) => ({ status: STATUS_ROTATION[i % STATUS_ROTATION.length], fields: none }),
    },
    {
      name: 'a week (date from, date to)',
      fill: (i) => ({
        status: '',
        fields: { createdFrom: buenosAiresDate(at(i).createdAtMs, 6), createdTo: buenosAiresDate(at(i).createdAtMs) },
      }),
    },
    { name: 'text, a common word', fill: (i) => ({ status: '', fields: { text: WORDS[i % WORDS.length] } }) },
    { name: `text, a rare word ("${RARE_WORD}")`, fill: () => ({ status: '', fields: { text: RARE_WORD } }) },
    {
      name: 'text, an invoice number',
      fill: (i) => ({ status: '', fields: { text: invoices[i % Math.max(1, invoices.length)] ?? 'A-0001-00000001' } }),
    },
    { name: 'originId', fill: (i) => ({ status: '', fields: { originId: String(at(i).originId) } }) },
    {
      name: 'networkId',
      fill: (i) => ({
        status: '',
        fields: { networkId: answered[i % Math.max(1, answered.length)]?.networkId ?? 'NET0' },
      }),
    },
    {
      name: 'COMPLETED + destination account + 30 days',
      fill: (i) => ({
        status: 'COMPLETED',
        fields: {
          to: at(i).toAddress,
          createdFrom: buenosAiresDate(at(i).createdAtMs, 29),
          createdTo: buenosAiresDate(at(i).createdAtMs),
        },
      }),
    },
    {
      name: 'CUIT + amount range',
      fill: (i) => ({ status: '', fields: { cuit: at(i).toPersonId, ...range(Math.round(at(i).amountCents / 2)) } }),
    },
    {
      name: 'FAILED + text + a week',
      fill: (i) => ({
        status: 'FAILED',
        fields: {
          text: WORDS[i % WORDS.length],
          createdFrom: buenosAiresDate(at(i).createdAtMs, 6),
          createdTo: buenosAiresDate(at(i).createdAtMs),
        },
      }),
    },
  ];
}
