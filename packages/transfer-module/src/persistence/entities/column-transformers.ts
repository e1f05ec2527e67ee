import type { ValueTransformer } from 'typeorm';

/**
 * Postgres returns `bigint` columns as strings (they may exceed 2^53); every bigint giro stores (originIds,
 * epoch milliseconds, row ids) is a safe integer, so it is read back as a JS number on both engines.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
