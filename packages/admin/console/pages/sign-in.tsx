import { useState } from 'preact/hooks';
import { ApiClient, ApiError } from '../api/client';
import type { Me } from '../api/types';
import { TextField } from '../components/fields';
import { LanguageSwitch } from '../components/layout';
import { describeError } from '../components/notices';
import { useI18n } from '../i18n/i18n';

/** Sign-in: an API key pasted here is checked against `GET /admin/me` before anything else is shown. */
export function SignIn({ onSignedIn }: { onSignedIn(key: string, me: Me): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const presented = key.trim();
    if (presented === '') return setError(t('signIn.empty'));
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(presented, await new ApiClient(presented).get<Me>('admin/me'));
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401 ? t('signIn.refused') : describeError(failure, i18n),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>{t('signIn.title')}</h1>
      <p>{t('signIn.explain')}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          id="api-key"
          label={t('signIn.key')}
          type="password"
          value={key}
          onInput={setKey}
          error={error}
          hint={t('signIn.hint')}
          required
        />
        <button type="submit" class="primary" disabled={busy}>
          {t('signIn.submit')}
        </button>
      </form>
      <LanguageSwitch />
    </main>
  );
}
