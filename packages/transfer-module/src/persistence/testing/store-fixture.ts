import type { DataSource } from 'typeorm';
import { ManualClock } from '../../domain';
import { MovementStore } from '../movement-store';
import { sampleIntent } from './sample-intent';
import type { TestEngine } from './test-engines';

// Test support only: a migrated database of the engine under test, a store on it with a manual clock, and a
// shortcut to record intents.

export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

export interface StoreFixture {
  dataSource: DataSource;
  store: MovementStore;
  clock: ManualClock;
  /** Records sampleIntent(originId) without sending. */
  record(originId: number, options?: Parameters<typeof sampleIntent>[1]): ReturnType<MovementStore['recordIntent']>;
  /** Another data source and store on the same database and clock. */
  secondConnection(): Promise<{ dataSource: DataSource; store: MovementStore }>;
}

export async function storeFixture(engine: TestEngine): Promise<StoreFixture> {
  const database = await engine.createDatabase();
  const dataSource = await database.connectMigrated();
  const clock = new ManualClock(T0);
  const store = new MovementStore(dataSource, clock);
  return {
    dataSource,
    store,
    clock,
    record(originId, options) {
      const { intent, fingerprint } = sampleIntent(originId, options);
      return store.recordIntent(intent, fingerprint, { sendNow: false });
    },
    async secondConnection() {
      const other = await database.connect();
      return { dataSource: other, store: new MovementStore(other, clock) };
    },
  };
}
