import type { DataSource, EntityMetadata } from 'typeorm';
import { FINAL_STATUSES } from '../../domain';
import { MovementEntity } from '../entities';
import type { FencedWrite } from './fenced-update';
import { queryPrepared } from './prepared-statement';
import { movementColumns, movementFromRow } from './raw-rows';

/** Fenced updates written by one statement, at most this many rows. */
export const MAX_BATCH_ROWS = 64;

/** One fenced update in a statement of its own: how a failed batch's updates are retried, to learn whose it was. */
export type UnbatchedWrite = (write: FencedWrite) => Promise<MovementEntity | null>;

interface QueuedWrite {
  write: FencedWrite;
  /** shapeKey(write): writes with the same key go in the same statement. */
  shape: string;
  resolve: (movement: MovementEntity | null) => void;
  reject: (error: unknown) => void;
}

/** Postgres array types of the movement columns a fenced update may set. */
const ARRAY_TYPE_OF_COLUMN: Record<string, string> = {
  bigint: 'bigint[]',
  integer: 'integer[]',
  text: 'text[]',
  varchar: 'text[]',
};

/**
 * The Postgres counterpart of SQLite's group commit, for fenced updates without history rows (an answer
 * that changes no status): each is one UPDATE on its own, and with several reconciler processes on one
 * server the per-statement cost (a round trip, parse and plan, a commit with its WAL flush) is most of the
 * database's work. So while one batch statement is under way, the updates that arrive wait, and then go
 * together in ONE `UPDATE … FROM unnest(…)` statement, fenced and guarded row by row exactly as alone.
 * Under light load every update goes at once (a batch of one); the batches grow with the load.
 *
 * Each caller gets its own row (or null when its fence or guard did not match), only after the statement
 * committed. A batch never holds two updates of the same movement (the second waits for the next one, so
 * they apply in order). If the batch statement fails, each of its updates is retried alone, so an error
 * reaches only the caller whose update caused it.
 */
export class PostgresUpdateBatch {
  private readonly queue: QueuedWrite[] = [];
  private busy = false;
  private readonly statements = new Map<string, BatchStatement>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeUnbatched: UnbatchedWrite,
  ) {}

  /** Writes an update without history rows (those need the transaction of MovementStore.applyUpdate). */
  write(write: FencedWrite): Promise<MovementEntity | null> {
    if (write.history.length > 0) throw new Error('a batched fenced update writes no history rows');
    return new Promise((resolve, reject) => {
      this.queue.push({ write, shape: shapeKey(write), resolve, reject });
      if (!this.busy) {
        this.busy = true;
        // At the end of this turn: the updates queued during it go together.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await Promise.all(this.nextBatches().map((batch) => this.runBatch(batch)));
      }
    } finally {
      this.busy = false;
    }
  }

  /** Takes the next batches off the queue: one per statement shape, distinct movements, at most MAX_BATCH_ROWS. */
  private nextBatches(): QueuedWrite[][] {
    const batches = new Map<string, QueuedWrite[]>();
    const taken = new Set<number>();
    const left: QueuedWrite[] = [];
    for (const queued of this.queue) {
      const batch = batches.get(queued.shape) ?? [];
      if (taken.has(queued.write.originId) || batch.length === MAX_BATCH_ROWS) {
        left.push(queued);
        continue;
      }
      taken.add(queued.write.originId);
      batch.push(queued);
      batches.set(queued.shape, batch);
    }
    this.queue.splice(0, this.queue.length, ...left);
    return [...batches.values()];
  }

  /** Settles every write of the batch; never rejects (a stuck drain would hold every later write). */
  private async runBatch(batch: QueuedWrite[]): Promise<void> {
    let rows: Record<string, unknown>[];
    try {
      rows = await this.query(batch);
    } catch {
      // Which update failed, and why, is told by each one alone.
      await Promise.all(batch.map((queued) => this.retryUnbatched(queued)));
      return;
    }
    const byOriginId = new Map<number, MovementEntity>();
    for (const row of rows) {
      const movement = movementFromRow(row);
      byOriginId.set(movement.originId, movement);
    }
    for (const queued of batch) queued.resolve(byOriginId.get(queued.write.originId) ?? null);
  }

  /** Runs the batch's statement, prepared once per connection (queryPrepared). */
  private async query(batch: QueuedWrite[]): Promise<Record<string, unknown>[]> {
    const statement = this.statementFor(batch[0]);
    const runner = this.dataSource.createQueryRunner();
    try {
      return await queryPrepared(runner.manager, statement.sql, batchParameters(statement, batch));
    } finally {
      await runner.release();
    }
  }

  private async retryUnbatched(queued: QueuedWrite): Promise<void> {
    try {
      queued.resolve(await this.writeUnbatched(queued.write));
    } catch (error) {
      queued.reject(error);
    }
  }

  private statementFor(queued: QueuedWrite): BatchStatement {
    let statement = this.statements.get(queued.shape);
    if (statement === undefined) {
      statement = batchStatement(this.dataSource.getMetadata(MovementEntity), queued.write);
      this.statements.set(queued.shape, statement);
    }
    return statement;
  }
}

/** Updates with the same key are written by the same statement text. */
function shapeKey(write: FencedWrite): string {
  return [write.guard.kind, write.countQuery, write.uncountSend, ...valueColumns(write)].join('|');
}

function valueColumns(write: FencedWrite): string[] {
  return Object.keys(write.values).sort();
}

/** A batch statement's text, and whether its first parameter is the list of final statuses. */
interface BatchStatement {
  sql: string;
  withFinals: boolean;
}

// The rows come in as one array per column (`v`): the fence and guard inputs, then the values in
// valueColumns() order. Postgres must be able to type every parameter, so the final statuses are passed
// only when the text uses them.
function batchStatement(metadata: EntityMetadata, write: FencedWrite): BatchStatement {
  const properties = valueColumns(write);
  const withFinals =
    properties.includes('nextQueryAtMs') ||
    properties.includes('finalAtMs') ||
    write.guard.kind === 'changing' ||
    write.guard.kind === 'same-or-changing';
  let parameter = withFinals ? 1 : 0;
  const next = () => `$${++parameter}`;
  const notFinal = 'm."status" <> ALL($1::text[])';
  const inputs = [`${next()}::bigint[]`, `${next()}::text[]`, `${next()}::bigint[]`, `${next()}::text[]`];
  const names = ['"origin_id"', '"owner"', '"now_ms"', '"guard_status"'];
  const assignments: string[] = [];
  for (const property of properties) {
    const column = metadata.findColumnWithPropertyName(property);
    const arrayType = column && ARRAY_TYPE_OF_COLUMN[String(column.type)];
    if (!column || !arrayType) throw new Error(`MovementEntity has no batchable property ${property}`);
    const name = `"${column.databaseName}"`;
    inputs.push(`${next()}::${arrayType}`);
    names.push(name);
    // As alone (m."status" is the value before the update): a final movement is never due again, and keeps
    // when it became final.
    if (property === 'nextQueryAtMs') assignments.push(`${name} = CASE WHEN ${notFinal} THEN v.${name} END`);
    else if (property === 'finalAtMs')
      assignments.push(`${name} = CASE WHEN ${notFinal} THEN v.${name} ELSE m.${name} END`);
    else assignments.push(`${name} = v.${name}`);
  }
  assignments.push('"version" = m."version" + 1');
  if (write.countQuery) assignments.push('"queries" = m."queries" + 1');
  if (write.uncountSend) assignments.push('"attempts" = CASE WHEN m."attempts" > 0 THEN m."attempts" - 1 ELSE 0 END');
  const guards = {
    any: 'TRUE',
    only: 'm."status" = v."guard_status"',
    changing: `m."status" <> v."guard_status" AND ${notFinal}`,
    'same-or-changing': `(m."status" = v."guard_status" OR ${notFinal})`,
  };
  const sql = `UPDATE "giro_movements" AS m SET ${assignments.join(', ')}
    FROM unnest(${inputs.join(', ')}) AS v(${names.join(', ')})
    WHERE m."origin_id" = v."origin_id" AND m."lease_owner" = v."owner" AND m."lease_expires_at_ms" > v."now_ms"
      AND ${guards[write.guard.kind]}
    RETURNING ${movementColumns(metadata, 'm')}`;
  return { sql, withFinals };
}

function batchParameters(statement: BatchStatement, batch: QueuedWrite[]): unknown[] {
  const writes = batch.map(({ write }) => write);
  const values = writes.map((write) => write.values as Record<string, unknown>);
  return [
    ...(statement.withFinals ? [[...FINAL_STATUSES]] : []),
    writes.map((write) => write.originId),
    writes.map((write) => write.owner),
    writes.map((write) => write.nowMs),
    writes.map((write) => (write.guard.kind === 'any' ? null : write.guard.status)),
    ...valueColumns(writes[0]).map((property) => values.map((value) => value[property] ?? null)),
  ];
}

// One batch per DataSource: the stores of one process on one database share its statements.
const batches = new WeakMap<DataSource, PostgresUpdateBatch>();

/** The update batch of this Postgres DataSource, created with `writeUnbatched` on first use. */
export function updateBatchFor(dataSource: DataSource, writeUnbatched: UnbatchedWrite): PostgresUpdateBatch {
  let batch = batches.get(dataSource);
  if (batch === undefined) {
    batch = new PostgresUpdateBatch(dataSource, writeUnbatched);
    batches.set(dataSource, batch);
  }
  return batch;
}
