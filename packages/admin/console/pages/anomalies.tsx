import { ANOMALY_KINDS, type Anomaly, type Page, type UnknownDebit } from '../api/types';
import { SelectField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { AnomalyReason, UnknownDebitReason } from '../components/reasons';
import { ResolveAnomaly } from '../components/resolve-anomaly';
import { DataTable } from '../components/table';
import { StatusBadge, Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { href, navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;
/** Which anomalies are listed (`?resolved=`): the open ones by default, the work still to do. */
const SHOWN = ['false', 'true', 'all'] as const;
/** Which kind is listed (`?kind=`): every kind by default. */
const KINDS = ['all', ...ANOMALY_KINDS] as const;

/** An item of the list: a transfer's anomaly, or a statement's debit no transfer explains. */
type ListedAnomaly = (Anomaly & { originId: number }) | UnknownDebit;

/**
 * Every transfer's anomalies, the open ones first (bank answers that contradicted a final status, recorded and
 * never applied), and the bank statements' debits no transfer explains; each open one closed here with a note, as
 * on its transfer's page.
 */
export function Anomalies({ query }: { query: URLSearchParams }) {
  const { t } = useI18n();
  const { api } = useSession();
  const shown = SHOWN.find((value) => value === query.get('resolved')) ?? 'false';
  const kind = KINDS.find((value) => value === query.get('kind')) ?? 'all';
  const after = query.get('after') ?? undefined;
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<ListedAnomaly>>('admin/anomalies', {
        resolved: shown === 'all' ? undefined : shown,
        kind: kind === 'all' ? undefined : kind,
        after,
        limit: PAGE_SIZE,
      }),
    [query.toString()],
  );

  return (
    <section aria-labelledby="anomalies-title">
      <h1 id="anomalies-title">{t('anomalies.title')}</h1>
      <p>{t('anomalies.explain')}</p>
      <div class="filters">
        <SelectField
          id="anomalies-shown"
          label={t('anomalies.shown')}
          value={shown}
          onChange={(resolved) => navigate('anomalies', { resolved, kind })}
          options={SHOWN.map((value) => ({ value, label: t(`anomalies.shown.${value}`) }))}
        />
        <SelectField
          id="anomalies-kind"
          label={t('anomalies.kind')}
          value={kind}
          onChange={(chosen) => navigate('anomalies', { resolved: shown, kind: chosen })}
          options={KINDS.map((value) => ({ value, label: t(`anomalies.kind.${value}`) }))}
        />
      </div>
      <ErrorNotice error={error} />
      {data && data.items.length === 0 && <p class="muted">{t('anomalies.none')}</p>}
      {data && data.items.length > 0 && (
        <>
          <DataTable
            columns={[
              t('anomalies.at'),
              t('field.originId'),
              t('anomalies.kept'),
              t('anomalies.claimed'),
              t('anomalies.reason'),
              t('anomalies.closing'),
            ]}
          >
            {data.items.map((anomaly) =>
              anomaly.kind === 'unknown_debit' ? (
                <UnknownDebitRow
                  key={`unknown-debit-${anomaly.id}`}
                  debit={anomaly as UnknownDebit}
                  onResolved={reload}
                />
              ) : (
                <TransferAnomalyRow
                  key={anomaly.id}
                  anomaly={anomaly as Anomaly & { originId: number }}
                  onResolved={reload}
                />
              ),
            )}
          </DataTable>
          <Pager path="anomalies" query={{ resolved: shown, kind }} after={after} nextCursor={data.nextCursor} />
        </>
      )}
    </section>
  );
}

function TransferAnomalyRow({ anomaly, onResolved }: { anomaly: Anomaly & { originId: number }; onResolved(): void }) {
  return (
    <tr data-anomaly-id={anomaly.id}>
      <td>
        <Time at={anomaly.at} />
      </td>
      <td>
        <a href={href(`transfers/${anomaly.originId}`)}>{anomaly.originId}</a>
      </td>
      <td>{anomaly.status && <StatusBadge status={anomaly.status} />}</td>
      <td>
        <StatusBadge status={anomaly.claimed} />
      </td>
      <td class="description">
        <AnomalyReason anomaly={anomaly} />
      </td>
      <td>
        <Closing anomaly={anomaly} onResolved={onResolved} />
      </td>
    </tr>
  );
}

/** A debit no transfer explains: the statement's line in place of a transfer, no statuses. */
function UnknownDebitRow({ debit, onResolved }: { debit: UnknownDebit; onResolved(): void }) {
  const { t } = useI18n();
  return (
    <tr data-unknown-debit-id={debit.id}>
      <td>
        <Time at={debit.at} />
      </td>
      <td>
        {/* No transfer to link to: which line of which account's statement it is, on hover. */}
        <span
          class="muted"
          title={t('anomalies.statementLine', { line: debit.statement.line, account: debit.statement.account })}
        >
          {t('anomalies.noTransfer')}
        </span>
      </td>
      <td />
      <td />
      <td class="description">
        <UnknownDebitReason debit={debit} />
      </td>
      <td>
        <Closing anomaly={debit} onResolved={onResolved} />
      </td>
    </tr>
  );
}

function Closing({ anomaly, onResolved }: { anomaly: Anomaly | UnknownDebit; onResolved(): void }) {
  const { tm } = useI18n();
  if (!anomaly.resolution) return <ResolveAnomaly anomaly={anomaly} onResolved={onResolved} />;
  return (
    <span class="muted">
      {tm('anomaly.resolvedBy', { name: anomaly.resolution.by.name })} <Time at={anomaly.resolution.at} /> —{' '}
      <q translate={false}>{anomaly.resolution.note}</q>
    </span>
  );
}
