import { fetchBankHealth } from '../api/bank-health';
import type { Overview, ScheduledDay } from '../api/types';
import { STATUSES } from '../api/types';
import { ErrorNotice } from '../components/notices';
import { Money, StatusBadge, Time } from '../components/values';
import { typedDay } from '../days';
import { formatCount, formatTotals } from '../format';
import { useI18n } from '../i18n/i18n';
import { href } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

/** How often the dashboard asks again: its figures move with every sweep. */
const REFRESH_MS = 5_000;

export function Dashboard() {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const { data, error } = useLoad(
    () => api.get<Overview>('admin/overview'),
    [],
    () => REFRESH_MS,
  );
  const bank = useLoad(fetchBankHealth, [], () => REFRESH_MS).data;

  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">{t('dashboard.title')}</h1>
      <ErrorNotice error={error} />
      {data && (
        <div class="cards">
          <article class="card">
            <h2>{t('dashboard.byStatus')}</h2>
            <table class="compact">
              <tbody>
                {STATUSES.map((status) => (
                  <tr key={status}>
                    <th scope="row">
                      <a href={href('transfers', { status })}>
                        <StatusBadge status={status} />
                      </a>
                    </th>
                    <td class="num">{formatCount(data.countsByStatus[status] ?? 0, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </article>
          <article class="card">
            <h2>{t('dashboard.sentToday')}</h2>
            {data.sentToday.length === 0 ? (
              <p class="muted">{t('dashboard.nothingSent')}</p>
            ) : (
              <ul class="plain">
                {data.sentToday.map((sent) => (
                  <li key={sent.currencyId}>
                    <strong>
                      <Money amount={sent.amount} currencyId={sent.currencyId} />
                    </strong>{' '}
                    {t(sent.count === 1 ? 'dashboard.transfersCountOne' : 'dashboard.transfersCount', {
                      count: formatCount(sent.count, lang),
                    })}
                  </li>
                ))}
              </ul>
            )}
            <h2>{t('dashboard.oldestNonFinal')}</h2>
            {data.oldestNonFinal === null ? (
              <p class="muted">{t('dashboard.allFinal')}</p>
            ) : (
              <p>
                <a href={href(`transfers/${data.oldestNonFinal.originId}`)}>#{data.oldestNonFinal.originId}</a>{' '}
                <StatusBadge status={data.oldestNonFinal.status} /> <Time at={data.oldestNonFinal.createdAt} />
              </p>
            )}
          </article>
          {data.scheduled && (
            <article class="card" data-testid="dashboard-scheduled">
              <h2>
                <a href={href('scheduled')}>{t('dashboard.scheduled')}</a>
              </h2>
              <ul class="plain">
                <ScheduledDayLine label={t('dashboard.scheduledToday')} day={data.scheduled.today} />
                <ScheduledDayLine label={t('dashboard.scheduledTomorrow')} day={data.scheduled.tomorrow} />
              </ul>
            </article>
          )}
          <article class="card">
            <h2>{t('dashboard.toDo')}</h2>
            <ul class="plain">
              <li>
                <a href={href('cancellations')}>
                  {t('dashboard.cancellations', { count: formatCount(data.cancellationsToRegister, lang) })}
                </a>
              </li>
              <li>
                <a href={href('approvals')}>
                  {t('dashboard.awaitingApproval', { count: formatCount(data.awaitingApproval, lang) })}
                </a>
              </li>
              <li>
                <a href={href('anomalies')}>
                  {t('dashboard.anomalies', { count: formatCount(data.anomaliesOpen, lang) })}
                </a>
              </li>
            </ul>
          </article>
          {bank && (
            <article class="card">
              <h2>{t('dashboard.bank')}</h2>
              <p class={bank.healthy ? 'health-ok' : 'health-bad'}>
                {bank.healthy ? t('dashboard.bankHealthy') : t('dashboard.bankUnhealthy')}
              </p>
              {bank.detail !== '' && (
                <p class="muted" lang="en" translate={false}>
                  {bank.detail}
                </p>
              )}
            </article>
          )}
        </div>
      )}
    </section>
  );
}

/** "Hoy (29/11/2026): $ 12.345,00 en 3 transferencias", a link to that day's scheduled transfers. */
function ScheduledDayLine({ label, day }: { label: string; day: ScheduledDay }) {
  const { t, lang } = useI18n();
  const count = day.totals.reduce((sum, total) => sum + total.count, 0);
  return (
    <li data-day={day.day}>
      <a href={href('scheduled', { day: day.day })}>
        {label} ({typedDay(day.day)})
      </a>
      :{' '}
      {count === 0 ? (
        <span class="muted">{t('dashboard.scheduledNone')}</span>
      ) : (
        <strong>
          {t(count === 1 ? 'dashboard.scheduledFigureOne' : 'dashboard.scheduledFigure', {
            amount: formatTotals(day.totals, lang),
            count: formatCount(count, lang),
          })}
        </strong>
      )}
    </li>
  );
}
