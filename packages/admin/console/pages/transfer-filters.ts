import type { Query } from '../api/query';

/** The search of `GET /admin/transfers` (and of its CSV export), as the transfers page keeps it in its address. */
export const FILTER_NAMES = [
  'status',
  'createdFrom',
  'createdTo',
  'amountMin',
  'amountMax',
  'from',
  'to',
  'cuit',
  'originId',
  'networkId',
  'text',
] as const;

export type FilterName = (typeof FILTER_NAMES)[number];
export type Filters = Record<FilterName, string>;

export function filtersOf(query: URLSearchParams): Filters {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, query.get(name) ?? ''])) as Filters;
}

/** The filters that are set, for a query string. */
export function filterQuery(filters: Filters): Query {
  return Object.fromEntries(
    FILTER_NAMES.filter((name) => filters[name].trim() !== '').map((name) => [name, filters[name].trim()]),
  );
}

/** Newest first: what an operator looks for is usually today's. */
export const NEWEST_FIRST = '-createdAt';
