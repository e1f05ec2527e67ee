import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookEndpoint } from '../api/types';
import { TextField } from '../components/fields';
import { ErrorNotice, ShownOnce } from '../components/notices';
import { useI18n } from '../i18n/i18n';
import { fieldErrorText } from '../i18n/violations';
import { toggled } from '../selection';
import { useSession } from '../session';

/**
 * A webhook endpoint's URL, what it is for and the events it hears (admin): registered (its secret shown this once)
 * or, given `endpoint`, changed in place.
 */
export function WebhookEndpointForm({
  endpoint,
  onSaved,
  onCancel,
}: {
  endpoint?: WebhookEndpoint;
  /** Told once the API has saved it; the form waits for it (a list read again, say). */
  onSaved(endpoint: WebhookEndpoint): void | Promise<void>;
  onCancel?(): void;
}) {
  const { t, tm, lang } = useI18n();
  const { api } = useSession();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [eventTypes, setEventTypes] = useState<Set<string>>(new Set(endpoint?.eventTypes));
  const [created, setCreated] = useState<{ endpoint: WebhookEndpoint; secret: string }>();
  const [error, setError] = useState<unknown>();
  const violations = error instanceof ApiError ? error.violations : [];
  const fieldError = (field: string) => fieldErrorText(error, field, lang);
  const idOf = (field: string) => (endpoint ? `endpoint-${endpoint.id}-${field}` : `endpoint-${field}`);

  const toggle = (type: string) => setEventTypes((current) => toggled(current, type));

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setCreated(undefined);
    const body = {
      url: url.trim(),
      description: description.trim() === '' ? null : description.trim(),
      // In the order the API lists them, whatever the order they were ticked in.
      eventTypes: SUBSCRIBABLE_EVENT_TYPES.filter((type) => eventTypes.has(type)),
    };
    try {
      if (endpoint) {
        await onSaved(await api.patch<WebhookEndpoint>(`admin/webhooks/${encodeURIComponent(endpoint.id)}`, body));
        return;
      }
      const answer = await api.post<{ endpoint: WebhookEndpoint; secret: string }>('admin/webhooks', body);
      setCreated(answer);
      setUrl('');
      setDescription('');
      setEventTypes(new Set());
      await onSaved(answer.endpoint);
    } catch (failure) {
      setError(failure);
    }
  };

  const eventsError = fieldError('eventTypes');
  const titleId = idOf('form-title');
  return (
    <article class="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{endpoint ? t('webhooks.editTitle') : t('webhooks.new')}</h2>
      <form class="grid-form" onSubmit={save} noValidate>
        <TextField
          id={idOf('url')}
          label={t('webhooks.url')}
          value={url}
          onInput={setUrl}
          error={fieldError('url')}
          hint={t('webhooks.urlHint')}
          maxLength={2048}
        />
        <TextField
          id={idOf('description')}
          label={t('webhooks.description')}
          value={description}
          onInput={setDescription}
          error={fieldError('description')}
          maxLength={200}
        />
        <fieldset aria-describedby={eventsError ? idOf('events-error') : undefined}>
          <legend>{t('webhooks.eventsToHear')}</legend>
          {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
            <label key={type} class="check">
              <input type="checkbox" checked={eventTypes.has(type)} onChange={() => toggle(type)} />{' '}
              <span class="mono" translate={false}>
                {type}
              </span>
            </label>
          ))}
          {eventsError && (
            <p id={idOf('events-error')} class="field-error">
              {eventsError}
            </p>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary">
            {endpoint ? t('webhooks.save') : t('webhooks.create')}
          </button>
          {onCancel && (
            <button type="button" onClick={onCancel}>
              {t('webhooks.cancelEdit')}
            </button>
          )}
        </div>
      </form>
      {violations.length === 0 && <ErrorNotice error={error} />}
      {created && (
        <ShownOnce
          id="created-secret"
          text={tm('webhooks.createdOnce', { url: created.endpoint.url })}
          label={t('webhooks.secret')}
          secret={created.secret}
        />
      )}
    </article>
  );
}
