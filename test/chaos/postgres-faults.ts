import { setTimeout as sleep } from 'node:timers/promises';
import { CuttableProxy } from '@test-support/cuttable-proxy';
import type { TestDatabase } from '@test-support/postgres';
import { TEST_POSTGRES_URL } from '@test-support/postgres-url';
import { Client } from 'pg';
import type { OutageFault } from './database-outage';

// Database faults of the Postgres chaos run, touching the run's own database only: other suites use the same
// server at the same time. The replicas reach it through a CuttableProxy of the run's own.

/** What a log line says when giro's Postgres connection was cut, refused or terminated. */
const POSTGRES_CAUSE =
  /Connection terminated|ECONNRESET|ECONNREFUSED|timeout exceeded when trying to connect|terminating connection due to administrator command|Connection ended unexpectedly/;

export class PostgresFaults {
  private terminating: Promise<void> | undefined;
  private stopTerminating = false;
  /** Backends terminated so far. */
  terminated = 0;
  /** Rounds of pg_terminate_backend run so far. */
  rounds = 0;

  private constructor(
    private readonly database: TestDatabase,
    private readonly proxy: CuttableProxy,
  ) {}

  static async start(database: TestDatabase): Promise<PostgresFaults> {
    const server = new URL(database.url);
    const proxy = await CuttableProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    return new PostgresFaults(database, proxy);
  }

  /** The database's URL through the proxy: what the replicas are given. */
  get url(): string {
    const url = new URL(this.database.url);
    url.host = `127.0.0.1:${this.proxy.port}`;
    return url.toString();
  }

  /**
   * Terminates every backend of the run's database, again and again, `everyMs` apart, until stopped; a round that
   * falls while `paused()` waits for it to end. (A replica starting again after a kill is spared: what is tested is
   * that running replicas come through; a process that fails its start is the orchestrator's to start again.)
   */
  startTerminating(everyMs: { min: number; max: number }, random: () => number, paused: () => boolean): void {
    this.stopTerminating = false;
    this.terminating = (async () => {
      // Straight to the server (not through the proxy), connected to another database than the run's.
      const admin = new Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      try {
        while (!this.stopTerminating) {
          await sleep(everyMs.min + random() * (everyMs.max - everyMs.min));
          while (paused() && !this.stopTerminating) await sleep(50);
          if (this.stopTerminating) break;
          // The targets are chosen first (a materialized CTE): in one WHERE, Postgres may call
          // pg_terminate_backend before it checks the database, and end every session of the server.
          const result = await admin.query<{ terminated: number }>(
            `with targets as materialized (
               select pid from pg_stat_activity
                where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()
             )
             select (count(*) filter (where pg_terminate_backend(pid)))::int as terminated from targets`,
            [this.database.name],
          );
          this.rounds += 1;
          this.terminated += result.rows[0]?.terminated ?? 0;
        }
      } finally {
        await admin.end();
      }
    })();
  }

  async stopTerminatingBackends(): Promise<void> {
    this.stopTerminating = true;
    await this.terminating;
  }

  /** The database refusing connections for `durationMs`: every connection through the proxy cut, new ones refused. */
  refusal(durationMs: number): OutageFault {
    return {
      label: `connections refused ${durationMs / 1000} s`,
      durationMs,
      healthGoesDown: true,
      cause: POSTGRES_CAUSE,
      begin: async () => this.proxy.cutOff(),
      end: async () => this.proxy.restore(),
    };
  }

  async close(): Promise<void> {
    await this.stopTerminatingBackends();
    await this.proxy.close();
  }
}
