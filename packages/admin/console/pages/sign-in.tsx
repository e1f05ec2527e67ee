import { useState } from 'preact/hooks';
import { ApiClient, ApiError } from '../api/client';
import type { Me } from '../api/types';
import { TextField } from '../components/fields';
import { LanguageSwitch } from '../components/layout';
import { describeError } from '../components/notices';
import { useI18n } from '../i18n/i18n';

const NO_KEY = Symbol('no key typed');

/** Sign-in: an API key pasted here is checked against `GET /admin/me` before anything else is shown. */
export function SignIn({ onSignedIn }: { onSignedIn(key: string, me: Me): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [key, setKey] = useState('');
  /** Why the last try did not sign in: no key typed, or the API's answer (said in the language shown now). */
  const [refusal, setRefusal] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const refusalMessage = (): string | undefined => {
    if (refusal === undefined) return undefined;
    if (refusal === NO_KEY) return t('signIn.empty');
    if (refusal instanceof ApiError && refusal.status === 401) return t('signIn.refused');
    return describeError(refusal, i18n);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const presented = key.trim();
    if (presented === '') return setRefusal(NO_KEY);
    setBusy(true);
    setRefusal(undefined);
    try {
      onSignedIn(presented, await new ApiClient(presented).get<Me>('admin/me'));
    } catch (failure) {
      setRefusal(failure);
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
          error={refusalMessage()}
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
