import { ApiError } from '../api/client';
import { type I18n, useI18n } from '../i18n/i18n';
import { explainedRefusal } from '../i18n/refusals';

/** What went wrong, in the reader's language where the console knows the case, else the API's own message. */
export function describeError(error: unknown, { t, lang }: Pick<I18n, 't' | 'lang'>): string {
  if (error instanceof ApiError) {
    if (error.status === 429 && error.retryAfterSeconds !== undefined)
      return t('error.tooMany', { seconds: error.retryAfterSeconds, message: error.message });
    if (error.status === 403 && error.errorName === undefined) return t('error.forbidden', { message: error.message });
    // A back office reads what the refusal means; the HTTP status is shown only for what the console cannot explain.
    return explainedRefusal(error, lang) ?? t('error.api', { status: error.status, message: error.message });
  }
  if (error instanceof TypeError) return t('error.network');
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNotice({ error }: { error: unknown }) {
  const i18n = useI18n();
  if (error === undefined || error === null) return null;
  return (
    <p class="notice notice-error" role="alert">
      {describeError(error, i18n)}
    </p>
  );
}

export function SuccessNotice({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p class="notice notice-ok" role="status">
      {text}
    </p>
  );
}

/** A secret the API shows this once (a new key, a webhook's signing secret): said so, and selected on focus. */
export function ShownOnce({ id, text, label, secret }: { id: string; text: string; label: string; secret: string }) {
  return (
    <div class="notice notice-ok" role="status">
      <p>{text}</p>
      <label for={id}>{label}</label>
      <input id={id} class="mono wide" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
    </div>
  );
}
