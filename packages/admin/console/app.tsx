import './app.css';
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiClient, ApiError } from './api/client';
import type { Me } from './api/types';
import { Layout } from './components/layout';
import { I18nProvider, useI18n } from './i18n/i18n';
import { CurrentPage } from './pages/current-page';
import { SignIn } from './pages/sign-in';
import { forgetKey, type Session, SessionProvider, storedKey, storeKey } from './session';

/** The console: sign-in until a key is accepted, then the pages, with what the key's role may do. */
function Console() {
  const { t } = useI18n();
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(() => storedKey() !== null);

  const signOut = useCallback(() => {
    forgetKey();
    setSession(null);
  }, []);
  const open = useCallback(
    (key: string, me: Me) => {
      storeKey(key);
      setSession({ api: new ApiClient(key, signOut), me, signOut });
    },
    [signOut],
  );

  // A reload of the tab keeps the session: the stored key is checked again, and its role read afresh.
  useEffect(() => {
    const key = storedKey();
    if (key === null) return;
    new ApiClient(key)
      .get<Me>('admin/me')
      .then(
        (me) => open(key, me),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 401) forgetKey();
        },
      )
      .finally(() => setRestoring(false));
  }, [open]);

  if (restoring) return <p class="loading">{t('loading')}</p>;
  if (session === null) return <SignIn onSignedIn={open} />;
  return (
    <SessionProvider value={session}>
      <Layout>
        <CurrentPage />
      </Layout>
    </SessionProvider>
  );
}

const root = document.getElementById('app');
if (root !== null) {
  root.textContent = '';
  render(
    <I18nProvider>
      <Console />
    </I18nProvider>,
    root,
  );
}
