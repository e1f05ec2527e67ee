import { performance } from 'node:perf_hooks';
import type { ListMovementsOptions } from '@giro/transfer-module/persistence';
import type { DataSource } from 'typeorm';
import { PAGE_SIZE, type SearchKind, type SearchPools } from './search-queries';
import { type KindSamples, summarizeKind } from './search-report';
import { invoiceOf } from './search-seed-sql';

/** What the admin route runs for `GET /admin/transfers`: one page of the search, each movement as its view. */
export type ListPage = (options: ListMovementsOptions) => Promise<{ items: unknown[]; nextCursor: string | null }>;

export interface MeasurePlan {
  /** Timed samples per kind (pages, for the kinds that time pages 2–5). */
  runs: number;
  /** Untimed runs first (code compiled, the pages read into the caches). */
  warmup: number;
  /** A kind stops after this many seconds of timed runs, with fewer samples than `runs` (said in the report). */
  maxSecondsPerKind: number;
}

/** A small seeded generator (mulberry32): the same sample of movements from run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` movements of the history picked at random (by position, so popular values come as often as they are). */
export async function samplePools(
  dataSource: DataSource,
  firstOriginId: number,
  movements: number,
  count: number,
): Promise<SearchPools> {
  const random = seededRandom(21);
  const ids = Array.from({ length: count }, () => firstOriginId + Math.floor(random() * movements));
  const rows: Record<string, string | number | null>[] = await dataSource.query(
    `SELECT origin_id, network_id, amount_cents, to_address, to_person_id, from_address, from_person_id, created_at_ms,
       description FROM giro_movements WHERE origin_id IN (${ids.join(', ')})`,
  );
  const byId = new Map(rows.map((row) => [Number(row.origin_id), row]));
  return {
    samples: ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const invoice = invoiceOf(id);
      return [
        {
          originId: id,
          networkId: row.network_id === null ? null : String(row.network_id),
          amountCents: Number(row.amount_cents),
          toAddress: String(row.to_address),
          toPersonId: String(row.to_person_id),
          fromAddress: String(row.from_address),
          fromPersonId: String(row.from_person_id),
          createdAtMs: Number(row.created_at_ms),
          invoice: String(row.description).includes(invoice) ? invoice : null,
        },
      ];
    }),
  };
}

/** Times one kind of search: page 1 (or pages 2–`lastPage` by the cursor), a different sample each run. */
export async function measureKind(kind: SearchKind, list: ListPage, plan: MeasurePlan): Promise<KindSamples> {
  const samplesMs: number[] = [];
  const rowsPerPage: number[] = [];
  let run = 0;
  const once = async (timed: boolean) => {
    const search = kind.search(run++);
    let after: string | undefined;
    for (let page = 1; page <= (kind.lastPage ?? 1); page++) {
      const options: ListMovementsOptions = { ...search, limit: PAGE_SIZE, sort: kind.sort, ...(after && { after }) };
      const started = performance.now();
      const result = await list(options);
      const elapsed = performance.now() - started;
      if (timed && (kind.lastPage === undefined || page >= 2)) {
        samplesMs.push(elapsed);
        rowsPerPage.push(result.items.length);
      }
      if (result.nextCursor === null) break;
      after = result.nextCursor;
    }
  };
  // The warm-up has a third of the time limit: a search that reads the whole table would take minutes.
  const warming = performance.now();
  for (let i = 0; i < plan.warmup && performance.now() - warming < (plan.maxSecondsPerKind * 1000) / 3; i++) {
    await once(false);
  }
  const started = performance.now();
  while (samplesMs.length < plan.runs && performance.now() - started < plan.maxSecondsPerKind * 1000) {
    await once(true);
  }
  return summarizeKind(kind.name, samplesMs, rowsPerPage, plan.runs);
}
