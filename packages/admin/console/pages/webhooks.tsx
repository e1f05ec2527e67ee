import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { WebhookEndpoint } from '../api/types';
import { ErrorNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { useI18n } from '../i18n/i18n';
import { can } from '../permissions';
import { useSession } from '../session';
import { useLoad } from '../use-load';
import { WebhookEndpointCard } from './webhook-endpoint';
import { WebhookEndpointForm } from './webhook-endpoint-form';

/** Webhook endpoints: listed; one opened, with its deliveries and (admin) what can be done with it; a new one. */
export function Webhooks() {
  const { t } = useI18n();
  const { api, me } = useSession();
  const [chosen, setChosen] = useState<string>();
  const { data: endpoints, error, reload } = useLoad(() => api.get<WebhookEndpoint[]>('admin/webhooks'), []);
  // 409: the application runs without webhooks; that is a state to say, not an error to show.
  const disabled = error instanceof ApiError && error.status === 409;
  const opened = endpoints?.find((endpoint) => endpoint.id === chosen);

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
            t('webhooks.detail'),
          ]}
        >
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td class="mono" translate={false}>
                {endpoint.url}
              </td>
              <td translate={false}>{endpoint.description ?? ''}</td>
              {endpoint.eventTypes.length === 0 ? (
                <td>{t('webhooks.allEvents')}</td>
              ) : (
                <td class="mono" translate={false}>
                  {endpoint.eventTypes.join(', ')}
                </td>
              )}
              <td>{endpoint.enabled ? t('yes') : t('no')}</td>
              <td>
                <button type="button" aria-pressed={chosen === endpoint.id} onClick={() => setChosen(endpoint.id)}>
                  {t('webhooks.open')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {opened && (
        <WebhookEndpointCard
          endpoint={opened}
          key={opened.id}
          onChanged={reload}
          onDeleted={() => {
            setChosen(undefined);
            reload();
          }}
        />
      )}
      {!disabled && can(me.role, 'webhookEndpoints') && <WebhookEndpointForm onSaved={reload} />}
    </section>
  );
}
