import { useState } from 'preact/hooks';
import { toApiDecimal, typedAmount } from '../amounts';
import { ApiError } from '../api/client';
import { isFinal, type Movement, type Page, STATUSES } from '../api/types';
import { SelectField, TextField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { DataTable } from '../components/table';
import { TransferTabs } from '../components/transfer-tabs';
import { Money, PartyText, StatusBadge, statusKey, Time } from '../components/values';
import { toApiDay, typedDay } from '../days';
import { saveBlob } from '../download';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { fieldErrorText } from '../i18n/violations';
import { href, navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';
import { type FilterName, type Filters, filterQuery, filtersOf, NEWEST_FIRST } from './transfer-filters';

const PAGE_SIZE = 25;
/** While a shown transfer is not final, the page is fetched again this often: it moves as the bank answers. */
const LIVE_MS = 2_000;

type TextFilter = { name: FilterName; label: MessageKey; hint?: MessageKey; inputMode?: 'numeric' | 'decimal' };

// Days are typed (`dd/mm/aaaa`), not picked from a date input: a browser shows its own locale's order there, and
// 03/04 read month first by an English-speaking browser in a Buenos Aires back office is another day.
/** What a back office searches by most: in one row beside the status. */
const COMMON_FILTERS: TextFilter[] = [
  { name: 'createdFrom', label: 'filter.createdFrom', hint: 'filter.dayHint' },
  { name: 'createdTo', label: 'filter.createdTo', hint: 'filter.dayHint' },
  { name: 'originId', label: 'filter.originId', inputMode: 'numeric' },
  { name: 'text', label: 'filter.text' },
];
/** The rest, behind "Más filtros": open when one of them is in use or refused. */
const MORE_FILTERS: TextFilter[] = [
  { name: 'amountMin', label: 'filter.amountMin', inputMode: 'decimal' },
  { name: 'amountMax', label: 'filter.amountMax', inputMode: 'decimal' },
  { name: 'from', label: 'filter.from', inputMode: 'numeric' },
  { name: 'to', label: 'filter.to', inputMode: 'numeric' },
  { name: 'cuit', label: 'filter.cuit', inputMode: 'numeric' },
  { name: 'networkId', label: 'filter.networkId' },
];

type ExportFormat = 'csv' | 'excel-csv' | 'xlsx';
const EXPORTS: Record<ExportFormat, { path: string; query: Record<string, string>; extension: string }> = {
  csv: { path: 'admin/transfers/export.csv', query: {}, extension: 'csv' },
  'excel-csv': { path: 'admin/transfers/export.csv', query: { dialect: 'excel-es' }, extension: 'csv' },
  xlsx: { path: 'admin/transfers/export.xlsx', query: {}, extension: 'xlsx' },
};

export function Transfers({ query }: { query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const applied = filtersOf(query);
  const after = query.get('after') ?? undefined;
  const [draft, setDraft] = useState<Filters>(() => asTyped(applied));
  const [exportError, setExportError] = useState<unknown>();
  const search = { ...filterQuery(applied), sort: NEWEST_FIRST };

  const { data, error, loading } = useLoad(
    () => api.get<Page<Movement>>('admin/transfers', { ...search, limit: PAGE_SIZE, after }),
    [query.toString()],
    (page) => (page.items.some((movement) => !isFinal(movement.status)) ? LIVE_MS : undefined),
  );
  const violations = error instanceof ApiError ? error.violations : [];
  const fieldError = (name: FilterName) => fieldErrorText(error, name, lang);

  const textField = (filter: TextFilter) => (
    <TextField
      key={filter.name}
      id={`filter-${filter.name}`}
      label={t(filter.label)}
      hint={filter.hint && t(filter.hint)}
      inputMode={filter.inputMode}
      value={draft[filter.name]}
      onInput={(value) => setDraft((current) => ({ ...current, [filter.name]: value }))}
      error={fieldError(filter.name)}
    />
  );

  const submit = (event: Event) => {
    event.preventDefault();
    navigate('transfers', filterQuery(asApi(draft)));
  };

  /** The current search as a file: CSV for programs, CSV for Excel in Spanish, or an .xlsx workbook. */
  const exportAs = async (format: ExportFormat) => {
    setExportError(undefined);
    const { path, query, extension } = EXPORTS[format];
    try {
      saveBlob(
        await api.blob(path, { ...search, ...query }),
        `giro-transfers-${new Date().toISOString().slice(0, 10)}.${extension}`,
      );
    } catch (failure) {
      setExportError(failure);
    }
  };

  return (
    <section aria-labelledby="transfers-title">
      <h1 id="transfers-title">{t('transfers.title')}</h1>
      <TransferTabs current="transfers" />
      <form class="filters" onSubmit={submit} aria-label={t('transfers.search')} noValidate>
        <SelectField
          id="filter-status"
          label={t('filter.status')}
          value={draft.status}
          onChange={(status) => setDraft((current) => ({ ...current, status }))}
          error={fieldError('status')}
          options={[
            { value: '', label: t('filter.anyStatus') },
            ...STATUSES.map((status) => ({ value: status, label: t(statusKey(status)) })),
          ]}
        />
        {COMMON_FILTERS.map(textField)}
        <details
          class="more-filters"
          open={MORE_FILTERS.some((filter) => applied[filter.name] !== '' || fieldError(filter.name))}
        >
          <summary>{t('transfers.moreFilters')}</summary>
          <div class="filters-more">{MORE_FILTERS.map(textField)}</div>
        </details>
        <div class="actions">
          <button type="submit" class="primary">
            {t('transfers.searchButton')}
          </button>
          <a class="button" href={href('transfers')} onClick={() => setDraft(filtersOf(new URLSearchParams()))}>
            {t('transfers.clear')}
          </a>
          <button type="button" onClick={() => exportAs('csv')}>
            {t('transfers.export')}
          </button>
          <button type="button" onClick={() => exportAs('excel-csv')}>
            {t('transfers.exportExcelCsv')}
          </button>
          <button type="button" onClick={() => exportAs('xlsx')}>
            {t('transfers.exportXlsx')}
          </button>
        </div>
      </form>
      <ErrorNotice error={exportError} />
      <ErrorNotice error={violations.length > 0 ? undefined : error} />
      {data && (
        <>
          <p class="muted" aria-live="polite">
            {loading ? t('loading') : t('transfers.shown', { count: data.items.length })}
            {data.items.some((movement) => !isFinal(movement.status)) && ` · ${t('transfers.live')}`}
          </p>
          <TransferTable items={data.items} />
          <Pager path="transfers" query={filterQuery(applied)} after={after} nextCursor={data.nextCursor} />
        </>
      )}
    </section>
  );
}

/** The form's filters as the API reads them (`2026-11-24`, `1234.50`); asTyped's inverse. */
const asApi = (filters: Filters) => withFormats(filters, toApiDay, toApiDecimal);

/** The address's filters as the form shows them: as typed in Argentina, days day first and amounts `1.234,50`. */
const asTyped = (filters: Filters) => withFormats(filters, typedDay, typedAmount);

/** The filters with their days and amounts written by `day` and `amount`; the others as they are. */
function withFormats(filters: Filters, day: (value: string) => string, amount: (value: string) => string): Filters {
  return {
    ...filters,
    createdFrom: day(filters.createdFrom),
    createdTo: day(filters.createdTo),
    amountMin: amount(filters.amountMin),
    amountMax: amount(filters.amountMax),
  };
}

export function TransferTable({ items }: { items: Movement[] }) {
  const { t } = useI18n();
  if (items.length === 0) return <p class="muted">{t('transfers.none')}</p>;
  return (
    <DataTable
      columns={[
        t('field.originId'),
        t('field.createdAt'),
        t('field.status'),
        { text: t('field.amount'), numeric: true },
        t('field.from'),
        t('field.to'),
        t('field.description'),
      ]}
    >
      {items.map((movement) => (
        <tr key={movement.originId} data-origin-id={movement.originId}>
          <td>
            <a href={href(`transfers/${movement.originId}`)}>{movement.originId}</a>
          </td>
          <td>
            <Time at={movement.createdAt} />
          </td>
          <td>
            <StatusBadge status={movement.status} />
          </td>
          <td class="num">
            <Money amount={movement.amount} currencyId={movement.currencyId} />
          </td>
          <td>
            <PartyText party={movement.from} />
          </td>
          <td>
            <PartyText party={movement.to} />
          </td>
          <td class="description" translate={false}>
            {movement.description}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
