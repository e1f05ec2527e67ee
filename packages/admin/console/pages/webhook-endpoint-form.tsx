import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookEndpoint } from '../api/types';
import { TextField } from '../components/fields';
import { ErrorNotice, ShownOnce } from '../components/notices';
import { useI18n } from '../i18n/i18n';
import { fieldErrorText } from '../i18n/violations';
import { toggled } from '../selection';
import { useSession } from '../session';

/** Registers a webhook endpoint (admin): its URL, what it is for, the events it hears; its secret shown this once. */
export function WebhookEndpointForm({ onCreated }: { onCreated(): void }) {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [eventTypes, setEventTypes] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{ endpoint: WebhookEndpoint; secret: string }>();
  const [error, setError] = useState<unknown>();
  const violations = error instanceof ApiError ? error.violations : [];
  const fieldError = (field: string) => fieldErrorText(error, field, lang);

  const toggle = (type: string) => setEventTypes(toggled(eventTypes, type));

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setCreated(undefined);
    try {
      const answer = await api.post<{ endpoint: WebhookEndpoint; secret: string }>('admin/webhooks', {
        url: url.trim(),
        description: description.trim() === '' ? null : description.trim(),
        // In the order the API lists them, whatever the order they were ticked in.
        eventTypes: SUBSCRIBABLE_EVENT_TYPES.filter((type) => eventTypes.has(type)),
      });
      setCreated(answer);
      setUrl('');
      setDescription('');
      setEventTypes(new Set());
      onCreated();
    } catch (failure) {
      setError(failure);
    }
  };

  const eventsError = fieldError('eventTypes');
  return (
    <article class="card" aria-labelledby="new-endpoint-title">
      <h2 id="new-endpoint-title">{t('webhooks.new')}</h2>
      <form class="grid-form" onSubmit={create} noValidate>
        <TextField
          id="endpoint-url"
          label={t('webhooks.url')}
          value={url}
          onInput={setUrl}
          error={fieldError('url')}
          hint={t('webhooks.urlHint')}
          maxLength={2048}
        />
        <TextField
          id="endpoint-description"
          label={t('webhooks.description')}
          value={description}
          onInput={setDescription}
          error={fieldError('description')}
          maxLength={200}
        />
        <fieldset aria-describedby={eventsError ? 'endpoint-events-error' : undefined}>
          <legend>{t('webhooks.eventsToHear')}</legend>
          {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
            <label key={type} class="check">
              <input type="checkbox" checked={eventTypes.has(type)} onChange={() => toggle(type)} /> {type}
            </label>
          ))}
          {eventsError && (
            <p id="endpoint-events-error" class="field-error">
              {eventsError}
            </p>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary">
            {t('webhooks.create')}
          </button>
        </div>
      </form>
      {violations.length === 0 && <ErrorNotice error={error} />}
      {created && (
        <ShownOnce
          id="created-secret"
          text={t('webhooks.createdOnce', { url: created.endpoint.url })}
          label={t('webhooks.secret')}
          secret={created.secret}
        />
      )}
    </article>
  );
}
