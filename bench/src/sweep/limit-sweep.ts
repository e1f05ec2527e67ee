import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { GET_MOVEMENT_PATH, signedHeaders } from '../bank/raw-signing';
import { closedLoop } from '../load';
import { SWEPT_AGAIN_AFTER_MS } from './backlog';
import type { SweepResult, SweepTask } from './sweep-task';

const DUE = `SELECT origin_id FROM giro_movements
  WHERE status NOT IN ('COMPLETED', 'FAILED') AND next_query_at_ms <= ? ORDER BY next_query_at_ms, origin_id`;
const UPDATE = `UPDATE giro_movements
  SET status = ?, last_bank_answer = ?, last_answer_at_ms = ?, next_query_at_ms = ?, queries = queries + 1,
      updated_at_ms = ?
  WHERE origin_id = ?`;

/**
 * The physical limit of a sweep on SQLite: the due originIds read once, then a raw undici get-movement loop
 * (mutual TLS, token, HMAC; `inFlight` at a time) and one raw update per answer with synchronous=FULL.
 * Like giro's sweep, it sweeps the warm-up movements during set-up and the measured ones (made due before go) at go.
 */
export async function prepareLimitSweep(task: SweepTask): Promise<() => Promise<SweepResult>> {
  if (!task.databaseUrl.startsWith('sqlite:')) throw new Error('the sweep limit runs on SQLite only');
  const db = new Database(task.databaseUrl.slice('sqlite:'.length));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const due = db.prepare(DUE).pluck();
  const update = db.prepare(UPDATE);
  const { bank } = task;
  const pool = new Pool(bank.url, {
    connections: task.inFlight,
    connect: { ca: bank.ca, cert: bank.cert, key: bank.key },
  });
  const sweep = (dueBy: number, options: { untilMs?: number }) => {
    const originIds = due.all(dueBy) as number[];
    return closedLoop(
      task.inFlight,
      originIds.length,
      async (index) => {
        const originId = originIds[index];
        const body = JSON.stringify({ originId });
        const response = await pool.request({
          method: 'POST',
          path: GET_MOVEMENT_PATH,
          headers: signedHeaders({
            path: GET_MOVEMENT_PATH,
            body,
            token: bank.token,
            hmacSecret: bank.hmacSecret,
            hmac: bank.hmac,
          }),
          body,
        });
        const answer = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`the bank answered ${response.statusCode}: ${answer}`);
        const now = Date.now();
        const { status } = JSON.parse(answer) as { status: string };
        update.run(status, answer, now, now + SWEPT_AGAIN_AFTER_MS, now, originId);
      },
      options,
    );
  };
  const warmup = await sweep(Date.now(), {});
  if (warmup.errors > 0) throw new Error(`the warm-up sweep had ${warmup.errors} errors: ${warmup.firstError}`);
  return async () => {
    const started = performance.now();
    const load = await sweep(Date.now(), task.timeLimitMs === undefined ? {} : { untilMs: task.timeLimitMs });
    const durationMs = performance.now() - started;
    await pool.close();
    db.close();
    return { queried: load.completed, errors: load.errors, durationMs };
  };
}
