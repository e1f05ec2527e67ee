import { useState } from 'preact/hooks';
import type { BatchAnswer, BatchRow } from '../api/types';
import { ErrorNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { StatusBadge } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { violationText } from '../i18n/violations';
import { href } from '../router';
import { useSession } from '../session';

/** The columns of a batch file (packages/admin/README.md, "A batch from a CSV file"); `concept` may be left out. */
const COLUMNS = 'originId,fromAddress,fromCuit,toAddress,toCuit,currencyId,amount,description,concept';

/**
 * A batch from a spreadsheet: the file is sent as it is to `POST /admin/transfers/batch?dryRun=true`, which
 * validates every row and sends nothing; only the confirmation sends it for real. Each row carries its originId,
 * so sending the same file again creates nothing twice.
 */
export function Batch() {
  const { t } = useI18n();
  const { api } = useSession();
  const [file, setFile] = useState<{ name: string; text: string }>();
  const [preview, setPreview] = useState<BatchAnswer>();
  const [result, setResult] = useState<BatchAnswer>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const choose = async (event: Event) => {
    const chosen = (event.currentTarget as HTMLInputElement).files?.[0];
    setPreview(undefined);
    setResult(undefined);
    setError(undefined);
    setFile(chosen && { name: chosen.name, text: await chosen.text() });
  };

  const send = async (dryRun: boolean) => {
    if (file === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.postText<BatchAnswer>(
        'admin/transfers/batch',
        file.text,
        'text/csv',
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
  return (
    <section aria-labelledby="batch-title">
      <h1 id="batch-title">{t('batch.title')}</h1>
      <p>{t('batch.explain')}</p>
      <p>
        {t('batch.columns')} <code>{COLUMNS}</code>
      </p>
      <div class="field">
        <label for="batch-file">{t('batch.file')}</label>
        <input id="batch-file" type="file" accept=".csv,text/csv" onChange={choose} />
      </div>
      <div class="actions">
        <button type="button" disabled={file === undefined || busy} onClick={() => send(true)}>
          {t('batch.preview')}
        </button>
      </div>
      <ErrorNotice error={error} />
      {preview && result === undefined && (
        <>
          <h2>{t('batch.previewTitle', { name: file?.name ?? '' })}</h2>
          <p role="status">
            {t('batch.previewSummary', {
              valid: toCreate,
              exists: count(preview, 'exists'),
              bad: count(preview, 'invalid', 'conflict', 'refused'),
            })}
          </p>
          <BatchTable rows={preview.rows} />
          <div class="actions">
            <button type="button" class="primary" disabled={toCreate === 0 || busy} onClick={() => send(false)}>
              {t('batch.confirm', { count: toCreate })}
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
          <BatchTable rows={result.rows} />
        </>
      )}
    </section>
  );
}

const OUTCOMES = ['valid', 'exists', 'created', 'replayed', 'conflict', 'invalid', 'refused'] as const;

function BatchTable({ rows }: { rows: BatchRow[] }) {
  const { t, lang } = useI18n();
  const outcomeLabel = (outcome: string) =>
    OUTCOMES.includes(outcome as (typeof OUTCOMES)[number])
      ? t(`batchOutcome.${outcome as (typeof OUTCOMES)[number]}`)
      : outcome;
  return (
    <DataTable
      class="batch-rows"
      columns={[t('batch.row'), t('field.originId'), t('batch.outcome'), t('field.status'), t('batch.errors')]}
    >
      {rows.map((row) => (
        <tr key={row.row} data-row={row.row} class={(row.violations ?? []).length > 0 ? 'row-invalid' : undefined}>
          <td>{row.row}</td>
          <td>{row.originId === null ? '—' : <a href={href(`transfers/${row.originId}`)}>{row.originId}</a>}</td>
          <td>{outcomeLabel(row.outcome)}</td>
          <td>{row.status && <StatusBadge status={row.status} />}</td>
          <td>
            {(row.violations ?? []).map((violation) => (
              <div key={`${violation.field}:${violation.rule}`}>
                <strong>{violation.field}</strong> {violationText(violation, lang)}
              </div>
            ))}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
