import type { ClaimedMovement } from '../persistence';
import { SweepPipeline, type SweepPipelineOptions } from './sweep-pipeline';

const A = '0000003100000000000001';
const B = '0000003100000000000002';

function creation(originId: number, address: string): ClaimedMovement {
  return { originId, status: 'PENDING', intent: { from: { address } } } as unknown as ClaimedMovement;
}

function pipeline(
  batches: ClaimedMovement[][],
  overrides: Partial<SweepPipelineOptions>,
): { pipeline: SweepPipeline; limits: number[] } {
  const limits: number[] = [];
  const options: SweepPipelineOptions = {
    store: {
      claimDue: async (claim) => {
        limits.push(claim.limit);
        return batches.shift() ?? [];
      },
    },
    owner: 'sweeper',
    batchSize: 3,
    concurrency: 2,
    leaseMs: 60_000,
    dueBy: new Date(0),
    now: () => new Date(0),
    creations: () => true,
    accountWeights: new Map(),
    claimed: async () => undefined,
    stopping: () => false,
    work: async () => true,
    giveBack: async () => undefined,
    ...overrides,
  };
  return { pipeline: new SweepPipeline(options), limits };
}

describe('SweepPipeline', () => {
  it("puts a batch's first creation of an account with none queued ahead of the queue", async () => {
    const order: number[] = [];
    let secondClaim: () => void = () => undefined;
    const claimedTwice = new Promise<void>((resolve) => {
      secondClaim = resolve;
    });
    let claims = 0;
    const { pipeline: sweep } = pipeline(
      [
        [creation(1, A), creation(2, A), creation(3, A)],
        [creation(4, A), creation(5, B), creation(6, A)],
      ],
      {
        claimed: async () => {
          claims += 1;
          if (claims === 2) secondClaim();
        },
        work: async (record) => {
          order.push(record.originId);
          // Both workers busy with A's backlog, A's third one queued, until the next batch is queued.
          if (record.originId <= 2) await claimedTwice;
          return true;
        },
      },
    );
    await sweep.workAllDue();
    // B's one creation before A's queued one; A's next ones after it, in the batch's order.
    expect(order).toEqual([1, 2, 5, 3, 4, 6]);
  });

  it("claims a quarter second of the pace it keeps, or the last claim's time of it, below its concurrency too", async () => {
    let nowMs = 0;
    const batch = (first: number, count: number) => Array.from({ length: count }, (_, n) => creation(first + n, A));
    const batches = [batch(1, 100), batch(101, 1), batch(102, 2)];
    // How long each claim takes, by the sweep's clock: the second one three seconds (and what the workers did).
    const claimMs = [0, 3000];
    const limits: number[] = [];
    const { pipeline: sweep } = pipeline([], {
      batchSize: 100,
      concurrency: 4,
      now: () => new Date(nowMs),
      store: {
        claimDue: async (claim) => {
          limits.push(claim.limit);
          nowMs += claimMs.shift() ?? 0;
          return batches.shift() ?? [];
        },
      },
      work: async () => {
        // One movement a second: a quarter second's worth is one.
        nowMs += 1000;
        return true;
      },
    });
    await sweep.workAllDue();
    // The first claim knows no pace: the batch size. Then a quarter second's worth (one), however many workers;
    // after a claim that took three seconds or more, at least three seconds' worth.
    expect(limits.slice(0, 2)).toEqual([100, 1]);
    expect(limits[2]).toBeGreaterThanOrEqual(3);
    expect(limits).toHaveLength(3);
  });
});
