import { useState } from 'preact/hooks';
import type { WebhookDelivery, WebhookEndpoint } from '../api/types';
import { ErrorNotice, ShownOnce, SuccessNotice } from '../components/notices';
import { Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { can } from '../permissions';
import { useSession } from '../session';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointForm } from './webhook-endpoint-form';

/** What an action did, said in the language chosen when it is read (not when it happened). */
type Done = { key: MessageKey; values?: Record<string, string | number> };

/**
 * One endpoint: where it stands, and for an admin what the API does with it — change it, disable or enable it,
 * rotate its secret (shown once; the previous one signs beside it for the grace period), send it a test event,
 * deliver its dead deliveries again, delete it. Rotating and deleting wait for a second click. Its deliveries below.
 */
export function WebhookEndpointCard({
  endpoint,
  onChanged,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  /** Reads the endpoint again; its notice is shown once the card shows what changed. */
  onChanged(): Promise<void>;
  onDeleted(): void;
}) {
  const { t, tm } = useI18n();
  const { api, me } = useSession();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<'rotate' | 'delete'>();
  const [rotatedSecret, setRotatedSecret] = useState<string>();
  const [done, setDone] = useState<Done>();
  const [error, setError] = useState<unknown>();
  /** Bumped when an action adds deliveries, so the list below is read again. */
  const [deliveriesSeen, setDeliveriesSeen] = useState(0);
  const path = `admin/webhooks/${encodeURIComponent(endpoint.id)}`;

  const act = async (action: () => Promise<Done | undefined>) => {
    setConfirming(undefined);
    setError(undefined);
    setDone(undefined);
    setRotatedSecret(undefined);
    try {
      setDone(await action());
    } catch (failure) {
      setError(failure);
    }
  };

  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await api.patch(path, { enabled });
      await onChanged();
      return { key: enabled ? 'webhooks.enabledAgain' : 'webhooks.disabledNow' };
    });
  const rotate = () =>
    act(async () => {
      const rotated = await api.post<{ endpoint: WebhookEndpoint; secret: string }>(`${path}/rotate-secret`);
      await onChanged();
      setRotatedSecret(rotated.secret);
      return undefined;
    });
  const sendTest = () =>
    act(async () => {
      const delivery = await api.post<WebhookDelivery>(`${path}/test`);
      setDeliveriesSeen((seen) => seen + 1);
      return { key: 'webhooks.testQueued', values: { id: delivery.id } };
    });
  const redeliverDead = () =>
    act(async () => {
      const { redelivered } = await api.post<{ redelivered: number }>(`${path}/redeliver-dead`);
      setDeliveriesSeen((seen) => seen + 1);
      return { key: 'webhooks.redeliveredDead', values: { count: redelivered } };
    });
  const remove = () =>
    act(async () => {
      await api.delete(path);
      onDeleted();
      return undefined;
    });

  const admin = can(me.role, 'webhookEndpoints');
  return (
    <>
      <article class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">{tm('webhooks.endpointTitle', { url: endpoint.url })}</h2>
        <dl>
          <dt>{t('webhooks.id')}</dt>
          <dd class="mono" translate={false}>
            {endpoint.id}
          </dd>
          <dt>{t('webhooks.enabled')}</dt>
          <dd data-testid="endpoint-state">
            {endpoint.enabled ? (
              t('yes')
            ) : (
              <>
                {t('webhooks.disabledSince')} <Time at={endpoint.disabledAt} />
                {endpoint.disabledReason && (
                  <small lang="en" translate={false}>
                    {' '}
                    ({endpoint.disabledReason})
                  </small>
                )}
              </>
            )}
          </dd>
          {endpoint.previousSecretExpiresAt && (
            <>
              <dt>{t('webhooks.previousSecret')}</dt>
              <dd>
                {t('webhooks.previousSecretUntil')} <Time at={endpoint.previousSecretExpiresAt} />
              </dd>
            </>
          )}
        </dl>
        {admin && (
          <div class="actions">
            <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              {t('webhooks.edit')}
            </button>
            <button type="button" onClick={() => setEnabled(!endpoint.enabled)}>
              {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
            </button>
            <button type="button" onClick={sendTest}>
              {t('webhooks.sendTest')}
            </button>
            <button type="button" onClick={redeliverDead}>
              {t('webhooks.redeliverDead')}
            </button>
            <button type="button" class="danger" onClick={() => setConfirming('rotate')}>
              {t('webhooks.rotate')}
            </button>
            <button type="button" class="danger" onClick={() => setConfirming('delete')}>
              {t('webhooks.delete')}
            </button>
          </div>
        )}
        {confirming && (
          <fieldset class="confirm">
            <legend>{t(confirming === 'rotate' ? 'webhooks.confirmRotate' : 'webhooks.confirmDelete')}</legend>
            <button type="button" class="danger" onClick={confirming === 'rotate' ? rotate : remove}>
              {t(confirming === 'rotate' ? 'webhooks.confirmRotateYes' : 'webhooks.confirmDeleteYes')}
            </button>
            <button type="button" onClick={() => setConfirming(undefined)}>
              {t('webhooks.confirmNo')}
            </button>
          </fieldset>
        )}
        <SuccessNotice text={done && t(done.key, done.values)} />
        <ErrorNotice error={error} />
        {rotatedSecret && (
          <ShownOnce
            id="rotated-secret"
            text={t('webhooks.rotatedOnce')}
            label={t('webhooks.secret')}
            secret={rotatedSecret}
          />
        )}
      </article>
      {admin && editing && (
        <WebhookEndpointForm
          endpoint={endpoint}
          onSaved={async () => {
            await onChanged();
            setEditing(false);
            setDone({ key: 'webhooks.saved' });
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      <WebhookDeliveries endpointId={endpoint.id} key={`${endpoint.id}-${deliveriesSeen}`} />
    </>
  );
}
