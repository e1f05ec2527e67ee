import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { signedHeaders, TRANSFER_REQUEST_PATH } from '../bank/raw-signing';
import { transferRequest } from '../workload/transfer-request';
import type { CreateSystemUnderTest, CreateTask } from './create-task';

/**
 * The physical limit of the create path on this machine: what any client must do at least, with nothing
 * around it. One raw better-sqlite3 insert (the durable intent, synchronous=FULL) before the request, a raw
 * undici request with mutual TLS, token and HMAC, and one raw update with the answer.
 */
export async function limitCreate(task: CreateTask): Promise<CreateSystemUnderTest> {
  const db = new Database(task.databaseFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE transfers (origin_id INTEGER PRIMARY KEY, request TEXT NOT NULL, status TEXT NOT NULL, answer TEXT)',
  );
  const insert = db.prepare('INSERT INTO transfers (origin_id, request, status) VALUES (?, ?, ?)');
  const update = db.prepare('UPDATE transfers SET status = ?, answer = ? WHERE origin_id = ?');
  const { bank } = task;
  const pool = new Pool(bank.url, {
    connections: task.maxConnections,
    connect: { ca: bank.ca, cert: bank.cert, key: bank.key },
  });
  return {
    async transfer(index) {
      const originId = task.firstOriginId + index;
      const body = JSON.stringify(transferRequest(originId));
      insert.run(originId, body, 'PENDING');
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
      update.run((JSON.parse(answer) as { status: string }).status, answer, originId);
    },
    async close() {
      await pool.close();
      db.close();
    },
  };
}
