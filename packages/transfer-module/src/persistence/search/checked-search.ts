import { amountToCents, isDecimalAmount, type MovementStatus } from '../../domain';
import type { MovementEntity } from '../entities';
import { StoreArgumentError } from '../persistence.errors';
import {
  checkDate,
  checkInteger,
  checkNetworkId,
  checkOriginId,
  checkStatus,
  MAX_BATCH_SIZE,
} from '../store-arguments';
import { type ListMovementsOptions, MOVEMENT_SORTS, type MovementPage, type MovementSort } from '../store-types';
import { escapeLike } from './like-pattern';

// A search's options, checked before any transaction, the same for every engine. Keyset paging: the cursor is the
// last row's sort key, so a page costs the same however deep it is, and a movement created meanwhile neither
// shifts nor repeats the rows of the next page.

const ORIGIN_ID_CURSOR = /^[1-9][0-9]{0,15}$/;
const CREATED_AT_CURSOR = /^([0-9]{1,16})_([1-9][0-9]{0,15})$/;
const ADDRESS = /^[0-9]{22}$/;
const PERSON_ID = /^[0-9]{11}$/;
const MAX_TEXT_LENGTH = 100;

export type SearchCursor =
  | { originId: number }
  | { createdAtMs: number; originId: number }
  | { executeAtMs: number; originId: number };

/** A search's filters and page, checked: every filter given must hold. */
export interface CheckedSearch {
  limit: number;
  sort: MovementSort;
  after: SearchCursor | undefined;
  status?: MovementStatus;
  networkId?: string;
  debinId?: string;
  originId?: number;
  createdFromMs?: number;
  createdBeforeMs?: number;
  executeFromMs?: number;
  executeBeforeMs?: number;
  /** One amount (`amountMin` equal to `amountMax`), in cents. */
  amountCents?: number;
  /** A range of amounts in cents (at least one bound given, and not one amount). */
  amountRange?: { min?: number; max?: number };
  fromAddress?: string;
  toAddress?: string;
  /** Either party's CUIT. */
  personId?: string;
  /** The text as given, and as a `LIKE` pattern of its lowercase anywhere in the description. */
  text?: { given: string; pattern: string };
}

/** The options checked; throws StoreArgumentError naming the first bad one. */
export function checkedSearch(options: ListMovementsOptions): CheckedSearch {
  const limit = checkInteger(options.limit, 'limit', 1, MAX_BATCH_SIZE);
  const sort = checkSort(options.sort);
  const search: CheckedSearch = {
    limit,
    sort,
    after: options.after === undefined ? undefined : parseCursor(options.after, sort),
  };
  if (options.status !== undefined) search.status = checkStatus(options.status, 'status');
  if (options.networkId !== undefined) search.networkId = checkNetworkId(options.networkId);
  if (options.debinId !== undefined) search.debinId = checkNetworkId(options.debinId, 'debinId');
  if (options.originId !== undefined) search.originId = checkOriginId(options.originId);
  if (options.createdFrom !== undefined) search.createdFromMs = checkDate(options.createdFrom, 'createdFrom');
  if (options.createdBefore !== undefined) search.createdBeforeMs = checkDate(options.createdBefore, 'createdBefore');
  if (options.executeFrom !== undefined) search.executeFromMs = checkDate(options.executeFrom, 'executeFrom');
  if (options.executeBefore !== undefined) search.executeBeforeMs = checkDate(options.executeBefore, 'executeBefore');
  const amountMin = options.amountMin === undefined ? undefined : cents(options.amountMin, 'amountMin');
  const amountMax = options.amountMax === undefined ? undefined : cents(options.amountMax, 'amountMax');
  if (amountMin !== undefined && amountMin === amountMax) search.amountCents = amountMin;
  else if (amountMin !== undefined || amountMax !== undefined) search.amountRange = { min: amountMin, max: amountMax };
  if (options.fromAddress !== undefined) {
    search.fromAddress = matching(options.fromAddress, ADDRESS, 'fromAddress', '22 digits');
  }
  if (options.toAddress !== undefined)
    search.toAddress = matching(options.toAddress, ADDRESS, 'toAddress', '22 digits');
  if (options.text !== undefined) search.text = { given: options.text as string, pattern: containing(options.text) };
  if (options.personId !== undefined) {
    search.personId = matching(options.personId, PERSON_ID, 'personId', '11 digits');
  }
  return search;
}

/** The page of `rows` (the limit's worth, and one more when there is a next page) and its cursor. */
export function pageOf<T>(
  rows: MovementEntity[],
  search: CheckedSearch,
  map: (row: MovementEntity) => T,
): MovementPage<T> {
  const kept = rows.slice(0, search.limit);
  const last = kept[kept.length - 1];
  const nextCursor = rows.length > search.limit ? cursorOf(last, search.sort) : null;
  return { items: kept.map(map), nextCursor };
}

function cursorOf(row: MovementEntity, sort: MovementSort): string {
  if (sort === 'originId') return String(row.originId);
  return `${sort === 'executeAt' ? row.executeAtMs : row.createdAtMs}_${row.originId}`;
}

function parseCursor(after: unknown, sort: MovementSort): SearchCursor {
  const invalid = () =>
    new StoreArgumentError('after', 'cursor', `must be the nextCursor of a previous page sorted by ${sort}`);
  if (typeof after !== 'string') throw invalid();
  if (sort === 'originId') {
    if (!ORIGIN_ID_CURSOR.test(after) || !Number.isSafeInteger(Number(after))) throw invalid();
    return { originId: Number(after) };
  }
  const match = CREATED_AT_CURSOR.exec(after);
  if (!match || !Number.isSafeInteger(Number(match[1])) || !Number.isSafeInteger(Number(match[2]))) throw invalid();
  const originId = Number(match[2]);
  return sort === 'executeAt'
    ? { executeAtMs: Number(match[1]), originId }
    : { createdAtMs: Number(match[1]), originId };
}

function checkSort(sort: unknown): MovementSort {
  if (sort === undefined) return 'originId';
  if (!MOVEMENT_SORTS.includes(sort as MovementSort)) {
    throw new StoreArgumentError('sort', 'enum', `must be one of ${MOVEMENT_SORTS.join(', ')}`, {
      allowed: [...MOVEMENT_SORTS],
    });
  }
  return sort as MovementSort;
}

function cents(amount: unknown, field: string): number {
  if (!isDecimalAmount(amount))
    throw new StoreArgumentError(field, 'amount', 'must be a canonical decimal string like "1234.50"');
  return Number(amountToCents(amount));
}

function matching(value: unknown, pattern: RegExp, field: string, rule: string): string {
  if (typeof value !== 'string' || !pattern.test(value))
    throw new StoreArgumentError(field, 'format', `must be ${rule}`);
  return value;
}

/** A LIKE pattern for text anywhere in the description: its wildcards and the escape character taken literally. */
function containing(text: unknown): string {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT_LENGTH) {
    throw new StoreArgumentError('text', 'length', `must be from 1 to ${MAX_TEXT_LENGTH} characters`, {
      min: 1,
      max: MAX_TEXT_LENGTH,
    });
  }
  return `%${escapeLike(text.toLowerCase())}%`;
}
