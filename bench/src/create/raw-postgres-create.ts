import { Pool as PgPool } from 'pg';
import { Pool } from 'undici';
import { signedHeaders, TRANSFER_REQUEST_PATH } from '../bank/raw-signing';
import { transferRequest } from '../workload/transfer-request';
import type { CreateSystemUnderTest, CreateTask } from './create-task';

/** pg's default pool size, which giro's Postgres store keeps too. */
const PG_POOL_SIZE = 10;

/**
 * The least a client does to create a transfer durably on Postgres: a raw pg insert of the intent (its own
 * commit) before the request, a raw undici request with mutual TLS, token and HMAC, and a raw update with the
 * answer (its own commit). Prepared statements; the same pool size and keep-alive connections as giro.
 */
export async function rawPostgresCreate(task: CreateTask): Promise<CreateSystemUnderTest> {
  if (task.postgresUrl === undefined) throw new Error('raw-pg runs on Postgres only');
  const db = new PgPool({ connectionString: task.postgresUrl, max: PG_POOL_SIZE });
  await db.query(
    'CREATE TABLE IF NOT EXISTS raw_transfers (origin_id bigint PRIMARY KEY, request text NOT NULL, status text NOT NULL, answer text)',
  );
  const { bank } = task;
  const pool = new Pool(bank.url, {
    connections: task.maxConnections,
    connect: { ca: bank.ca, cert: bank.cert, key: bank.key },
  });
  return {
    async transfer(index) {
      const originId = task.firstOriginId + index;
      const body = JSON.stringify(transferRequest(originId));
      await db.query({
        name: 'insert-intent',
        text: 'INSERT INTO raw_transfers (origin_id, request, status) VALUES ($1, $2, $3)',
        values: [originId, body, 'PENDING'],
      });
      const response = await pool.request({
        method: 'POST',
        path: TRANSFER_REQUEST_PATH,
        headers: signedHeaders({
          path: TRANSFER_REQUEST_PATH,
          body,
          token: bank.token,
          hmacSecret: bank.hmacSecret,
          hmac: bank.hmac,
        }),
        body,
      });
      const answer = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`the bank answered ${response.statusCode}: ${answer}`);
      await db.query({
        name: 'record-answer',
        text: 'UPDATE raw_transfers SET status = $1, answer = $2 WHERE origin_id = $3',
        values: [(JSON.parse(answer) as { status: string }).status, answer, originId],
      });
    },
    async close() {
      await pool.close();
      await db.end();
    },
  };
}
