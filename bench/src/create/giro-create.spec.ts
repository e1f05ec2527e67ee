import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataSourceOptionsFromUrl, systemClock } from '@giro/transfer-module';
import { OriginIdAllocator } from '@giro/transfer-module/persistence';
import { DataSource } from 'typeorm';
import { freshOriginIdRange, SIDE_BY_SIDE_ID_RANGE } from '../workload/transfer-request';
import { startOriginIdsAt } from './giro-create';

describe('startOriginIdsAt', () => {
  it("starts giro's allocator where each side-by-side worker's range starts, apart from the other's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'giro-bench-origin-ids-'));
    try {
      const first = freshOriginIdRange();
      const firstIds: number[] = [];
      for (const side of [0, 1]) {
        const url = `sqlite:${join(dir, `side-${side}.sqlite`)}`;
        await startOriginIdsAt(url, first + side * SIDE_BY_SIDE_ID_RANGE);
        const dataSource = await new DataSource(dataSourceOptionsFromUrl(url)).initialize();
        try {
          const [id] = await new OriginIdAllocator(dataSource, systemClock).allocate();
          firstIds.push(id);
        } finally {
          await dataSource.destroy();
        }
      }
      // The first side starts at the range (above the time floor when it was read), the second a range above it.
      expect(firstIds[0]).toBeGreaterThanOrEqual(first);
      expect(firstIds[0]).toBeLessThan(first + SIDE_BY_SIDE_ID_RANGE);
      expect(firstIds[1]).toBe(first + SIDE_BY_SIDE_ID_RANGE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
