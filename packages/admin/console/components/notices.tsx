import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import { type I18n, useI18n } from '../i18n/i18n';
import { refusalText } from '../i18n/refusals';
import { violationText } from '../i18n/violations';

/**
 * What went wrong, in the reader's language, from the answer's code, facts and violations: the API's English
 * `message` is for logs, never shown.
 */
export function describeError(error: unknown, { t, lang }: Pick<I18n, 't' | 'lang'>): string {
  if (error instanceof ApiError) {
    if (error.status === 429 && error.retryAfterSeconds !== undefined)
      return t('error.tooMany', { seconds: error.retryAfterSeconds });
    const refusal = refusalText(error, lang);
    const violations = error.violations.map((violation) => violationText(violation, lang));
    return [refusal, ...violations].join(' ');
  }
  if (error instanceof TypeError) return t('error.network');
  return t('error.unexpected');
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
export function ShownOnce({
  id,
  text,
  label,
  secret,
}: {
  id: string;
  text: ComponentChildren;
  label: string;
  secret: string;
}) {
  return (
    <div class="notice notice-ok" role="status">
      <p>{text}</p>
      <label for={id}>{label}</label>
      <input id={id} class="mono wide" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
    </div>
  );
}
