import type { Anomaly, Page } from '../api/types';
import { SelectField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { AnomalyReason } from '../components/reasons';
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

/**
 * Every transfer's anomalies, the open ones first (bank answers that contradicted a final status, recorded and
 * never applied); each open one closed here with a note, as on its transfer's page.
 */
export function Anomalies({ query }: { query: URLSearchParams }) {
  const { t } = useI18n();
  const { api } = useSession();
  const shown = SHOWN.find((value) => value === query.get('resolved')) ?? 'false';
  const after = query.get('after') ?? undefined;
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<Anomaly & { originId: number }>>('admin/anomalies', {
        resolved: shown === 'all' ? undefined : shown,
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
          onChange={(resolved) => navigate('anomalies', { resolved })}
          options={SHOWN.map((value) => ({ value, label: t(`anomalies.shown.${value}`) }))}
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
            {data.items.map((anomaly) => (
              <tr key={anomaly.id} data-anomaly-id={anomaly.id}>
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
                  {anomaly.resolution ? (
                    <span class="muted">
                      {t('anomaly.resolvedBy', { name: anomaly.resolution.by.name })}{' '}
                      <Time at={anomaly.resolution.at} /> — <q translate={false}>{anomaly.resolution.note}</q>
                    </span>
                  ) : (
                    <ResolveAnomaly anomaly={anomaly} onResolved={reload} />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="anomalies" query={{ resolved: shown }} after={after} nextCursor={data.nextCursor} />
        </>
      )}
    </section>
  );
}
