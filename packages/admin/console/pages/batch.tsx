import { useState } from 'preact/hooks';
import type { BatchAnswer, BatchRow, BatchRowTransfer } from '../api/types';
import { ErrorNotice } from '../components/notices';
import { ScheduleText } from '../components/schedule-text';
import { DataTable } from '../components/table';
import { Money, StatusBadge } from '../components/values';
import { formatTotals } from '../format';
import { useI18n } from '../i18n/i18n';
import { violationText } from '../i18n/violations';
import { href } from '../router';
import { useSession } from '../session';

/**
 * The columns of a batch file (packages/admin/README.md, "A batch from a file"); `concept` and the execution day may be
 * left out (`executeAt`, a moment, is the README's too).
 */
const COLUMNS_ES =
  'idOrigen;cbuOrigen;cuitOrigen;cbuDestino;cuitDestino;moneda;importe;descripción;concepto;fechaEjecucion';
const COLUMNS_EN = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept,executeOn';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A row's outcomes after which its transfer is stored: only those link to it. */
const STORED_OUTCOMES = ['exists', 'created', 'replayed', 'conflict'];

/**
 * A batch from a spreadsheet: the file's bytes are sent as they are (never decoded here: the server reads UTF-8,
 * Windows-1252 and .xlsx exactly) to `POST /admin/transfers/batch?dryRun=true`, which validates every row and
 * sends nothing; the preview shows each row's money and the totals, and only the confirmation, which names the
 * count and the total, sends it for real. Each row carries its originId, so sending the same file again creates
 * nothing twice.
 */
export function Batch() {
  const { t, tm, lang } = useI18n();
  const { api } = useSession();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<BatchAnswer>();
  const [result, setResult] = useState<BatchAnswer>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const choose = (event: Event) => {
    setPreview(undefined);
    setResult(undefined);
    setError(undefined);
    setFile((event.currentTarget as HTMLInputElement).files?.[0]);
  };

  const send = async (dryRun: boolean) => {
    if (file === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.postFile<BatchAnswer>(
        'admin/transfers/batch',
        file,
        /\.xlsx$/i.test(file.name) ? XLSX_TYPE : 'text/csv',
        dryRun ? { dryRun: 'true' } : undefined,
      );
      // A new preview replaces the last result: the same file again shows its rows as existing.
      if (dryRun) {
        setResult(undefined);
        setPreview(answer);
      } else setResult(answer);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const count = (answer: BatchAnswer | undefined, ...outcomes: string[]) =>
    answer?.rows.filter((row) => outcomes.includes(row.outcome)).length ?? 0;
  // Only `valid` rows would be created: `exists` is stored already, `conflict`, `invalid` and `refused` (a limit
  // of the source account, as it stands now) would not be.
  const toCreate = count(preview, 'valid');
  const total = formatTotals(preview?.totals?.overall ?? [], lang);
  // What the preview read of each row, to show beside the result (the run answers outcomes only).
  const previewed = new Map((preview?.rows ?? []).map((row) => [row.row, row.transfer]));
  return (
    <section aria-labelledby="batch-title">
      <h1 id="batch-title">{t('batch.title')}</h1>
      <p>{t('batch.explain')}</p>
      <p>
        {t('batch.columns')} <code>{lang === 'es' ? COLUMNS_ES : COLUMNS_EN}</code>
      </p>
      <p class="muted">{t('batch.formats')}</p>
      <div class="field">
        <span id="batch-file-label">{t('batch.file')}</span>
        {/* The browser's own file button speaks the browser's language: the input is hidden behind a label in ours. */}
        <div class="file-picker">
          <input
            id="batch-file"
            class="visually-hidden"
            type="file"
            aria-labelledby="batch-file-label"
            accept={`.csv,.xlsx,text/csv,${XLSX_TYPE}`}
            onChange={choose}
          />
          <label for="batch-file" class="button">
            {t('batch.chooseFile')}
          </label>
          {file ? (
            <span class="muted" translate={false}>
              {file.name}
            </span>
          ) : (
            <span class="muted">{t('batch.noFile')}</span>
          )}
        </div>
      </div>
      <div class="actions">
        <button type="button" disabled={file === undefined || busy} onClick={() => send(true)}>
          {t('batch.preview')}
        </button>
      </div>
      <ErrorNotice error={error} />
      {preview && result === undefined && (
        <>
          <h2>{tm('batch.previewTitle', { name: file?.name ?? '' })}</h2>
          <p role="status">
            {t('batch.previewSummary', {
              valid: toCreate,
              exists: count(preview, 'exists'),
              bad: count(preview, 'invalid', 'conflict', 'refused'),
            })}
          </p>
          <BatchTable rows={preview.rows} transferOf={(row) => row.transfer} />
          {toCreate > 0 && preview.totals && <BatchTotals totals={preview.totals} />}
          <div class="actions">
            <button type="button" class="primary" disabled={toCreate === 0 || busy} onClick={() => send(false)}>
              {toCreate === 0
                ? t('batch.confirmNone')
                : t(toCreate === 1 ? 'batch.confirmOne' : 'batch.confirmMany', { count: toCreate, total })}
            </button>
          </div>
        </>
      )}
      {result && (
        <>
          <h2>{t('batch.resultTitle')}</h2>
          <p role="status">
            {t('batch.resultSummary', {
              created: count(result, 'created'),
              replayed: count(result, 'replayed'),
              bad: count(result, 'invalid', 'conflict', 'refused'),
            })}
          </p>
          <BatchTable rows={result.rows} transferOf={(row) => previewed.get(row.row)} />
        </>
      )}
    </section>
  );
}

function BatchTotals({ totals }: { totals: NonNullable<BatchAnswer['totals']> }) {
  const { t } = useI18n();
  return (
    <DataTable
      class="batch-totals"
      columns={[
        t('batch.totalSource'),
        { text: t('batch.totalCount'), numeric: true },
        { text: t('batch.totalAmount'), numeric: true },
      ]}
    >
      {totals.perSource.map((total) => (
        <tr key={`${total.fromAddress}:${total.currencyId}`} data-source={total.fromAddress}>
          <td>
            <span class="party mono">{total.fromAddress}</span>
          </td>
          <td class="num">{total.count}</td>
          <td class="num">
            <Money amount={total.amount} currencyId={total.currencyId} />
          </td>
        </tr>
      ))}
      {totals.overall.map((total) => (
        <tr key={`total:${total.currencyId}`} class="batch-total" data-total={total.currencyId}>
          <th scope="row">{t('batch.total')}</th>
          <td class="num">{total.count}</td>
          <td class="num">
            <strong>
              <Money amount={total.amount} currencyId={total.currencyId} />
            </strong>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

const OUTCOMES = ['valid', 'exists', 'created', 'replayed', 'conflict', 'invalid', 'refused'] as const;

/** A row refused because its destination account is blocked in the payee book. */
const isBlocked = (row: BatchRow) =>
  row.outcome === 'refused' && (row.violations ?? []).some((violation) => violation.rule === 'payee_blocked');

function BatchTable({
  rows,
  transferOf,
}: {
  rows: BatchRow[];
  transferOf: (row: BatchRow) => BatchRowTransfer | undefined;
}) {
  const { t, lang } = useI18n();
  const transfers = rows.map(transferOf);
  // One source account for every row is said once, by the totals; a row's errors under its outcome, and the sending
  // day only when a row is scheduled: the table then fits a laptop's width.
  const sources = new Set(transfers.flatMap((transfer) => (transfer ? [transfer.fromAddress] : [])));
  const showSource = sources.size > 1;
  const showDay = transfers.some((transfer) => transfer?.schedule !== undefined);
  const outcomeLabel = (row: BatchRow) => {
    if (isBlocked(row)) return t('batchOutcome.blocked');
    return OUTCOMES.includes(row.outcome as (typeof OUTCOMES)[number])
      ? t(`batchOutcome.${row.outcome as (typeof OUTCOMES)[number]}`)
      : row.outcome;
  };
  return (
    <DataTable
      class="batch-rows"
      columns={[
        t('batch.row'),
        t('field.originId'),
        { text: t('field.amount'), numeric: true },
        showSource && t('batch.from'),
        t('batch.to'),
        t('field.description'),
        t('field.concept'),
        showDay && t('batch.day'),
        t('batch.outcome'),
      ]}
    >
      {rows.map((row, index) => {
        const transfer = transfers[index];
        return (
          <tr key={row.row} data-row={row.row} class={(row.violations ?? []).length > 0 ? 'row-invalid' : undefined}>
            <td>{row.row}</td>
            <td>
              {row.originId === null ? (
                '—'
              ) : STORED_OUTCOMES.includes(row.outcome) ? (
                <a href={href(`transfers/${row.originId}`)}>{row.originId}</a>
              ) : (
                row.originId
              )}
            </td>
            <td class="num">{transfer && <Money amount={transfer.amount} currencyId={transfer.currencyId} />}</td>
            {showSource && <td>{transfer && <span class="party mono account">{transfer.fromAddress}</span>}</td>}
            <td>
              {transfer && (
                <span class="party">
                  <span class="mono account">{transfer.toAddress}</span>
                  <small class="muted">CUIT {transfer.toCuit}</small>
                  {row.newPayee && (
                    <small class="flag flag-new" data-testid="new-payee">
                      {t('payees.firstPayment')}
                    </small>
                  )}
                  {isBlocked(row) && (
                    <small class="flag flag-blocked" data-testid="blocked-payee">
                      {t('batch.blocked')}
                    </small>
                  )}
                </span>
              )}
            </td>
            <td class="description">{transfer?.description}</td>
            <td>{transfer?.concept}</td>
            {showDay && (
              <td data-testid="row-day">
                {transfer?.schedule ? (
                  <ScheduleText schedule={transfer.schedule} />
                ) : (
                  transfer && <span class="muted">{t('batch.now')}</span>
                )}
              </td>
            )}
            <td class="outcome">
              {outcomeLabel(row)} {row.status && <StatusBadge status={row.status} />}
              {(row.violations ?? []).map((violation) => (
                <div key={`${violation.field}:${violation.rule}`} class="violation">
                  <strong>{violation.field}</strong> {violationText(violation, lang)}
                </div>
              ))}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
