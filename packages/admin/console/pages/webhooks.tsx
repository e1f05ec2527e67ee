import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Page, WebhookDelivery, WebhookEndpoint } from '../api/types';
import { SelectField } from '../components/fields';
import { describeError, ErrorNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { can } from '../permissions';
import { href } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';
import { WebhookEndpointForm } from './webhook-endpoint-form';

const PAGE_SIZE = 50;

/** Webhook endpoints and their deliveries; an endpoint registered, a delivery sent again (admin). */
export function Webhooks() {
  const { t } = useI18n();
  const { api, me } = useSession();
  const [chosen, setChosen] = useState<string>();
  const { data: endpoints, error, reload } = useLoad(() => api.get<WebhookEndpoint[]>('admin/webhooks'), []);
  // 409: the application runs without webhooks; that is a state to say, not an error to show.
  const disabled = error instanceof ApiError && error.status === 409;

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t('webhooks.title')}</h1>
      {disabled ? <p class="muted">{t('webhooks.disabled')}</p> : <ErrorNotice error={error} />}
      {endpoints && endpoints.length === 0 && <p class="muted">{t('webhooks.none')}</p>}
      {endpoints && endpoints.length > 0 && (
        <DataTable
          columns={[
            t('webhooks.url'),
            t('webhooks.description'),
            t('webhooks.events'),
            t('webhooks.enabled'),
            t('webhooks.deliveries'),
          ]}
        >
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td class="mono">{endpoint.url}</td>
              <td>{endpoint.description ?? ''}</td>
              <td>{endpoint.eventTypes.length === 0 ? t('webhooks.allEvents') : endpoint.eventTypes.join(', ')}</td>
              <td>{endpoint.enabled ? t('yes') : t('no')}</td>
              <td>
                <button type="button" aria-pressed={chosen === endpoint.id} onClick={() => setChosen(endpoint.id)}>
                  {t('webhooks.show')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {!disabled && can(me.role, 'webhookEndpoints') && <WebhookEndpointForm onCreated={reload} />}
      {chosen && <Deliveries endpointId={chosen} key={chosen} />}
    </section>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { api, me } = useSession();
  const [state, setState] = useState('');
  const [before, setBefore] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<WebhookDelivery>>(`admin/webhooks/${encodeURIComponent(endpointId)}/deliveries`, {
        state,
        before,
        limit: PAGE_SIZE,
      }),
    [endpointId, state, before],
  );
  const redeliver = async (id: number) => {
    setActionError(undefined);
    try {
      await api.post(`admin/webhook-deliveries/${id}/redeliver`);
      reload();
    } catch (failure) {
      setActionError(describeError(failure, i18n));
    }
  };

  return (
    <article class="card">
      <h2>{t('webhooks.deliveriesOf', { id: endpointId })}</h2>
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
          { value: 'pending', label: 'pending' },
          { value: 'delivered', label: 'delivered' },
          { value: 'dead', label: 'dead' },
        ]}
      />
      <ErrorNotice error={error} />
      {actionError && (
        <p class="notice notice-error" role="alert">
          {actionError}
        </p>
      )}
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
            t('webhooks.redeliver'),
          ]}
        >
          {data.items.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                <Time at={delivery.createdAt} />
              </td>
              <td>{delivery.eventType}</td>
              <td>
                {delivery.originId === null ? (
                  '—'
                ) : (
                  <a href={href(`transfers/${delivery.originId}`)}>{delivery.originId}</a>
                )}
              </td>
              <td>{delivery.state}</td>
              <td class="num">{delivery.attempts}</td>
              <td>
                {delivery.lastStatusCode ?? ''} {delivery.lastError ?? ''} <Time at={delivery.lastAttemptAt} />
              </td>
              {can(me.role, 'redeliver') && (
                <td>
                  <button type="button" onClick={() => redeliver(delivery.id)}>
                    {t('webhooks.redeliver')}
                  </button>
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
