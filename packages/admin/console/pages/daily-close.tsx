import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { CloseFigures, CloseTally, DailyClose as DailyCloseData } from '../api/close-types';
import { TextField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { Money, Time } from '../components/values';
import { yesterdayInBuenosAires } from '../days';
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
  const [draft, setDraft] = useState({ date, account });
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
          navigate('close', { date: draft.date, account: chosen === '' ? undefined : chosen });
        }}
      >
        <div class={errors.date ? 'field field-invalid' : 'field'}>
          <label for="close-date">{t('close.date')}</label>
          <input
            id="close-date"
            name="close-date"
            type="date"
            value={draft.date}
            required
            aria-invalid={errors.date ? 'true' : undefined}
            aria-describedby={errors.date ? 'close-date-error' : undefined}
            onInput={(event) => {
              const value = event.currentTarget.value;
              setDraft((current) => ({ ...current, date: value }));
            }}
          />
          {errors.date && (
            <p id="close-date-error" class="field-error">
              {errors.date}
            </p>
          )}
        </div>
        <TextField
          id="close-account"
          label={t('close.account')}
          value={draft.account}
          onInput={(value) => setDraft((current) => ({ ...current, account: value }))}
          inputMode="numeric"
          maxLength={22}
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
        <DataTable
          class="close-table"
          columns={[t('close.account'), ...FIGURES.map(({ label }) => ({ text: t(label), numeric: true as const }))]}
        >
          {data.accounts.map((row) => (
            <tr key={row.account} data-account={row.account}>
              <td class="mono">{row.account}</td>
              <FigureCells figures={row} />
            </tr>
          ))}
          <tr class="totals" data-account="total">
            <th scope="row">{t('close.totals')}</th>
            <FigureCells figures={data.totals} />
          </tr>
        </DataTable>
      )}
    </section>
  );
}

function FigureCells({ figures }: { figures: CloseFigures }) {
  const { t } = useI18n();
  return (
    <>
      {FIGURES.map(({ key }) => (
        <td key={key} class="num" data-figure={key}>
          <Tally tally={figures[key]} />
          {key === 'failed' && figures.failed.count > 0 && (
            <small class="muted">
              {t('close.failedSplit', {
                registered: figures.failed.registered.count,
                unregistered: figures.failed.unregistered.count,
              })}
            </small>
          )}
          {key === 'pendingAtEnd' && figures.pendingAtEnd.oldestCreatedAt !== null && (
            <small class="muted">
              {t('close.oldest')}
              <Time at={figures.pendingAtEnd.oldestCreatedAt} />
            </small>
          )}
        </td>
      ))}
    </>
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
