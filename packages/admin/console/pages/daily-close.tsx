import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { CloseFigures, CloseTally, DailyClose as DailyCloseData } from '../api/close-types';
import { TextField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { SourceAccountFilter } from '../components/source-account-filter';
import { DataTable } from '../components/table';
import { Money, Time } from '../components/values';
import { toApiDay, typedDay, yesterdayInBuenosAires } from '../days';
import { saveBlob } from '../download';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { fieldErrorText } from '../i18n/violations';
import { navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

/** The only currency giro sends (ISO 4217 numeric: the Argentine peso). */
const PESOS = '032';

const EXPORTS = {
  csv: { path: 'admin/reports/daily.csv', query: {}, extension: 'csv' },
  'excel-csv': { path: 'admin/reports/daily.csv', query: { dialect: 'excel-es' }, extension: 'csv' },
  xlsx: { path: 'admin/reports/daily.xlsx', query: {}, extension: 'xlsx' },
} as const;
type ExportFormat = keyof typeof EXPORTS;

/** The figures of a row, in the table's order, each with its heading. */
const FIGURES: { key: keyof CloseFigures; label: MessageKey }[] = [
  { key: 'created', label: 'close.created' },
  { key: 'sent', label: 'close.sent' },
  { key: 'completed', label: 'close.completed' },
  { key: 'failed', label: 'close.failed' },
  { key: 'rejected', label: 'close.rejected' },
  { key: 'canceled', label: 'close.canceled' },
  { key: 'pendingAtEnd', label: 'close.pendingAtEnd' },
  { key: 'awaitingApprovalAtEnd', label: 'close.awaitingApprovalAtEnd' },
  { key: 'scheduledAtEnd', label: 'close.scheduledAtEnd' },
];

/**
 * The daily close ("Cierre del día"): a Buenos Aires day's transfers per source account and in total (yesterday
 * unless a day is chosen), optionally of one account, and the same as CSV or .xlsx.
 */
export function DailyClose({ query }: { query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const date = query.get('date') ?? yesterdayInBuenosAires();
  const account = query.get('account') ?? '';
  // Typed day first (dd/mm/aaaa), as every day of the console: a date input's order follows the browser's locale.
  const [draft, setDraft] = useState({ date: typedDay(date), account });
  const [exportError, setExportError] = useState<unknown>();
  const request = { date, account: account === '' ? undefined : account };
  const { data, error } = useLoad(() => api.get<DailyCloseData>('admin/reports/daily', request), [query.toString()]);
  const errors = { date: fieldErrorText(error, 'date', lang), account: fieldErrorText(error, 'account', lang) };
  const refused = error instanceof ApiError && error.violations.length > 0;

  const exportAs = async (format: ExportFormat) => {
    setExportError(undefined);
    const { path, query: dialect, extension } = EXPORTS[format];
    try {
      const suffix = account === '' ? '' : `-${account}`;
      saveBlob(await api.blob(path, { ...request, ...dialect }), `giro-close-${date}${suffix}.${extension}`);
    } catch (failure) {
      setExportError(failure);
    }
  };

  return (
    <section aria-labelledby="close-title">
      <h1 id="close-title">{t('close.title')}</h1>
      <p>{t('close.explain')}</p>
      <form
        class="filters"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = draft.account.trim();
          navigate('close', { date: toApiDay(draft.date), account: chosen === '' ? undefined : chosen });
        }}
      >
        <TextField
          id="close-date"
          label={t('close.date')}
          hint={t('filter.dayHint')}
          value={draft.date}
          onInput={(value) => setDraft((current) => ({ ...current, date: value }))}
          inputMode="numeric"
          maxLength={10}
          error={errors.date}
        />
        <SourceAccountFilter
          id="close-account"
          value={draft.account}
          onChange={(value) => setDraft((current) => ({ ...current, account: value }))}
          error={errors.account}
        />
        <div class="actions">
          <button type="submit" class="primary">
            {t('close.show')}
          </button>
          <button type="button" onClick={() => exportAs('csv')}>
            {t('close.exportCsv')}
          </button>
          <button type="button" onClick={() => exportAs('excel-csv')}>
            {t('close.exportExcelCsv')}
          </button>
          <button type="button" onClick={() => exportAs('xlsx')}>
            {t('close.exportXlsx')}
          </button>
        </div>
      </form>
      <ErrorNotice error={exportError} />
      <ErrorNotice error={refused ? undefined : error} />
      {data && data.accounts.length === 0 && <p class="muted">{t('close.none')}</p>}
      {data && data.accounts.length > 0 && (
        // A row per figure, a column for the totals and one per account: it fits a laptop for the few source
        // accounts a business has, and a long list of accounts scrolls inside its box.
        <DataTable
          class="close-table"
          columns={[
            t('close.figure'),
            { text: t('close.totals'), numeric: true },
            ...data.accounts.map((row) => ({ text: row.account, numeric: true as const })),
          ]}
        >
          {FIGURES.map(({ key, label }) => (
            <tr key={key} data-figure={key}>
              <th scope="row">{t(label)}</th>
              <FigureCell figures={data.totals} figure={key} account="total" />
              {data.accounts.map((row) => (
                <FigureCell key={row.account} figures={row} figure={key} account={row.account} />
              ))}
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function FigureCell({
  figures,
  figure,
  account,
}: {
  figures: CloseFigures;
  figure: keyof CloseFigures;
  account: string;
}) {
  const { t } = useI18n();
  return (
    <td class="num" data-account={account}>
      <Tally tally={figures[figure]} />
      {figure === 'failed' && figures.failed.count > 0 && (
        <small class="muted">
          {t('close.failedSplit', {
            registered: figures.failed.registered.count,
            unregistered: figures.failed.unregistered.count,
          })}
        </small>
      )}
      {figure === 'pendingAtEnd' && figures.pendingAtEnd.oldestCreatedAt !== null && (
        <small class="muted">
          {t('close.oldest')} <Time at={figures.pendingAtEnd.oldestCreatedAt} />
        </small>
      )}
    </td>
  );
}

function Tally({ tally }: { tally: CloseTally }) {
  const { t } = useI18n();
  return (
    <>
      <Money amount={tally.amount} currencyId={PESOS} />
      <small class="muted count">{t('close.count', { count: tally.count })}</small>
    </>
  );
}
