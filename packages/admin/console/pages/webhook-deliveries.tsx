import { useState } from 'preact/hooks';
import { DELIVERY_STATES, type Page, type WebhookDelivery } from '../api/types';
import { SelectField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { can } from '../permissions';
import { href } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;
/** While a shown delivery is pending, the page is fetched again this often: it moves as giro delivers. */
const LIVE_MS = 2_000;

/** An endpoint's deliveries, newest first, by state; one sent again (admin). */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const { t, tm } = useI18n();
  const { api, me } = useSession();
  const [state, setState] = useState('');
  const [before, setBefore] = useState<string>();
  const [actionError, setActionError] = useState<unknown>();
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<WebhookDelivery>>(`admin/webhooks/${encodeURIComponent(endpointId)}/deliveries`, {
        state,
        before,
        limit: PAGE_SIZE,
      }),
    [endpointId, state, before],
    (page) => (page.items.some((delivery) => delivery.state === 'pending') ? LIVE_MS : undefined),
  );
  const mayRedeliver = can(me.role, 'redeliver');
  // Sending again is for what did not arrive: a pending delivery is being sent, a delivered one arrived.
  const anyDead = data?.items.some((delivery) => delivery.state === 'dead') ?? false;
  const redeliver = async (id: number) => {
    setActionError(undefined);
    try {
      await api.post(`admin/webhook-deliveries/${id}/redeliver`);
      reload();
    } catch (failure) {
      setActionError(failure);
    }
  };

  return (
    <article class="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{tm('webhooks.deliveriesOf', { id: endpointId })}</h2>
      <SelectField
        id="delivery-state"
        label={t('webhooks.state')}
        value={state}
        onChange={(value) => {
          setBefore(undefined);
          setState(value);
        }}
        options={[
          { value: '', label: t('webhooks.anyState') },
          ...DELIVERY_STATES.map((value) => ({ value, label: t(`delivery.${value}`) })),
        ]}
      />
      <ErrorNotice error={error} />
      <ErrorNotice error={actionError} />
      {data && data.items.length === 0 && <p class="muted">{t('webhooks.noDeliveries')}</p>}
      {data && data.items.length > 0 && (
        <DataTable
          columns={[
            t('field.createdAt'),
            t('webhooks.event'),
            t('field.originId'),
            t('webhooks.state'),
            t('webhooks.attempts'),
            t('webhooks.lastAnswer'),
            mayRedeliver && anyDead && t('webhooks.actions'),
          ]}
        >
          {data.items.map((delivery) => (
            <tr key={delivery.id} data-delivery-id={delivery.id}>
              <td>
                <Time at={delivery.createdAt} />
              </td>
              <td class="mono" translate={false}>
                {delivery.eventType}
              </td>
              <td>
                {delivery.originId === null ? (
                  '—'
                ) : (
                  <a href={href(`transfers/${delivery.originId}`)}>{delivery.originId}</a>
                )}
              </td>
              <td>{t(`delivery.${delivery.state}`)}</td>
              <td class="num">{delivery.attempts}</td>
              <td>
                <Time at={delivery.lastAttemptAt} />{' '}
                {/* The receiver's HTTP status; without one, giro's English account of the failure is on hover. */}
                {delivery.lastStatusCode !== null ? (
                  <span class="mono">HTTP {delivery.lastStatusCode}</span>
                ) : (
                  delivery.lastError && <span title={delivery.lastError}>{t('webhooks.noAnswer')}</span>
                )}
              </td>
              {mayRedeliver && anyDead && (
                <td>
                  {delivery.state === 'dead' && (
                    <button type="button" onClick={() => redeliver(delivery.id)}>
                      {t('webhooks.redeliver')}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      {data?.nextCursor && (
        <button type="button" onClick={() => setBefore(data.nextCursor ?? undefined)}>
          {t('pager.older')}
        </button>
      )}
    </article>
  );
}
