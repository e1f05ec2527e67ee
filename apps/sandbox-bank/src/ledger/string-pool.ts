/**
 * Shares equal strings between movements. Benchmarks send up to a million transfers between a handful
 * of accounts; without this each movement would hold its own copy of every account and CUIT. Bounded,
 * so a run with only distinct values costs a fixed amount and nothing more.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  intern<T extends string>(value: T): T {
    const pooled = this.pool.get(value);
    if (pooled !== undefined) return pooled as T;
    if (this.pool.size < this.capacity) this.pool.set(value, value);
    return value;
  }
}
