import { ApiError } from '../api/client';
import { type Translate, useI18n } from '../i18n/i18n';

/** What went wrong, in the reader's language where the console knows the case, else the API's own message. */
export function describeError(error: unknown, t: Translate): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return t('error.forbidden', { message: error.message });
    if (error.status === 429 && error.retryAfterSeconds !== undefined)
      return t('error.tooMany', { seconds: error.retryAfterSeconds, message: error.message });
    return t('error.api', { status: error.status, message: error.message });
  }
  if (error instanceof TypeError) return t('error.network');
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNotice({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (error === undefined || error === null) return null;
  return (
    <p class="notice notice-error" role="alert">
      {describeError(error, t)}
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
