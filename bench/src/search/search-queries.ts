import type { ListMovementsOptions, MovementSearch } from '@giro/transfer-module/persistence';
import { COMMON_WORD, invoiceOf, RARE_WORD } from './search-seed-sql';

/** What the bench searches for, taken from movements of the seeded history picked at random (so each value exists, and popular ones come as often as they are popular). */
export interface SearchPools {
  /** Sampled movements, each with what an operator might know of it. */
  samples: {
    originId: number;
    networkId: string | null;
    amountCents: number;
    toAddress: string;
    toPersonId: string;
    fromAddress: string;
    fromPersonId: string;
    createdAtMs: number;
    /** Its invoice number, when its description has one. */
    invoice: string | null;
  }[];
}

/** One kind of search: its filters for the i-th run (every run a different sample), and which page it times. */
export interface SearchKind {
  name: string;
  search(i: number): MovementSearch;
  sort: NonNullable<ListMovementsOptions['sort']>;
  /** Pages 2 to this are timed, each reached by the previous one's cursor (page 1 untimed); absent: page 1. */
  lastPage?: number;
}

export const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;
/** Buenos Aires is UTC−3 all year: its day starts at 03:00 UTC. */
const BUENOS_AIRES_OFFSET_MS = 3 * 3_600_000;

/** The Buenos Aires day holding `atMs`, as the admin API turns `createdFrom=createdTo=YYYY-MM-DD` into instants. */
export function buenosAiresDay(atMs: number, days = 1): Pick<MovementSearch, 'createdFrom' | 'createdBefore'> {
  const start = Math.floor((atMs - BUENOS_AIRES_OFFSET_MS) / DAY_MS) * DAY_MS + BUENOS_AIRES_OFFSET_MS;
  return { createdFrom: new Date(start - (days - 1) * DAY_MS), createdBefore: new Date(start + DAY_MS) };
}

/** Cents as the canonical decimal the search takes ("1234.50"). */
export function decimal(cents: number): NonNullable<MovementSearch['amountMin']> {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` as NonNullable<
    MovementSearch['amountMin']
  >;
}

/** The searches the bench times: each filter alone, combinations, deeper pages, and text common and rare. */
export function searchKinds(pools: SearchPools): SearchKind[] {
  const { samples } = pools;
  if (samples.length === 0) throw new Error('searchKinds: no sampled movements');
  const at = (i: number) => samples[i % samples.length];
  const invoices = samples.flatMap((sample) => (sample.invoice === null ? [] : [sample.invoice]));
  const withNetworkId = samples.filter((sample) => sample.networkId !== null);
  const range = (cents: number) => ({ amountMin: decimal(cents), amountMax: decimal(Math.round(cents * 1.5)) });
  const newest = '-createdAt' as const;
  return [
    { name: 'no filter', sort: newest, search: () => ({}) },
    { name: 'no filter, by originId (the API default)', sort: 'originId', search: () => ({}) },
    { name: 'status FAILED', sort: newest, search: () => ({ status: 'FAILED' }) },
    {
      name: 'exact amount',
      sort: newest,
      search: (i) => ({ amountMin: decimal(at(i).amountCents), amountMax: decimal(at(i).amountCents) }),
    },
    { name: 'amount range (x to 1.5 x)', sort: newest, search: (i) => range(at(i).amountCents) },
    { name: 'destination account', sort: newest, search: (i) => ({ toAddress: at(i).toAddress }) },
    { name: 'source account', sort: newest, search: (i) => ({ fromAddress: at(i).fromAddress }) },
    { name: "CUIT, a destination's", sort: newest, search: (i) => ({ personId: at(i).toPersonId }) },
    { name: "CUIT, a source's (our own)", sort: newest, search: (i) => ({ personId: at(i).fromPersonId }) },
    { name: 'one day (Buenos Aires)', sort: newest, search: (i) => buenosAiresDay(at(i).createdAtMs) },
    { name: 'originId', sort: newest, search: (i) => ({ originId: at(i).originId }) },
    {
      name: 'networkId',
      sort: newest,
      search: (i) => ({ networkId: withNetworkId[i % withNetworkId.length]?.networkId ?? 'NET0' }),
    },
    { name: `text, a common word ("${COMMON_WORD}")`, sort: newest, search: () => ({ text: COMMON_WORD }) },
    {
      name: 'COMPLETED + destination account + 30 days',
      sort: newest,
      search: (i) => ({ status: 'COMPLETED', toAddress: at(i).toAddress, ...buenosAiresDay(at(i).createdAtMs, 30) }),
    },
    {
      name: 'CUIT (destination) + 30 days',
      sort: newest,
      search: (i) => ({ personId: at(i).toPersonId, ...buenosAiresDay(at(i).createdAtMs, 30) }),
    },
    {
      name: 'text (common) + amount ≥ x',
      sort: newest,
      search: (i) => ({ text: COMMON_WORD, amountMin: decimal(at(i).amountCents) }),
    },
    {
      name: 'FAILED + amount range',
      sort: newest,
      search: (i) => ({ status: 'FAILED', ...range(at(i).amountCents) }),
    },
    { name: 'no filter, pages 2–5', sort: newest, lastPage: 5, search: () => ({}) },
    { name: 'status FAILED, pages 2–5', sort: newest, lastPage: 5, search: () => ({ status: 'FAILED' }) },
    {
      name: 'destination account, pages 2–5',
      sort: newest,
      lastPage: 5,
      search: (i) => ({ toAddress: at(i).toAddress }),
    },
    // Last: these read the whole table (no index serves them), which on Postgres at 10 M movements evicts the
    // cache the others found warm.
    { name: `text, a rare word ("${RARE_WORD}")`, sort: newest, search: () => ({ text: RARE_WORD }) },
    {
      name: 'text, an invoice number (one movement)',
      sort: newest,
      search: (i) => ({ text: invoices[i % invoices.length] ?? invoiceOf(at(i).originId) }),
    },
  ];
}
