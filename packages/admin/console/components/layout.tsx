import type { ComponentChildren } from 'preact';
import { LANGS, type Lang, useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { type Action, can } from '../permissions';
import { href, useRoute } from '../router';
import { useSession } from '../session';

interface NavItem {
  path: string;
  label: MessageKey;
  /** Shown only to the roles that may do it. */
  needs?: Action;
}

const NAV: NavItem[] = [
  { path: '', label: 'nav.dashboard' },
  { path: 'transfers', label: 'nav.transfers' },
  { path: 'new', label: 'nav.create', needs: 'create' },
  { path: 'batch', label: 'nav.batch', needs: 'batch' },
  { path: 'cancellations', label: 'nav.cancellations' },
  { path: 'anomalies', label: 'nav.anomalies' },
  { path: 'approvals', label: 'nav.approvals' },
  { path: 'payees', label: 'nav.payees' },
  { path: 'close', label: 'nav.close' },
  { path: 'webhooks', label: 'nav.webhooks' },
  { path: 'audit', label: 'nav.audit' },
  { path: 'keys', label: 'nav.keys', needs: 'keys' },
];

export function LanguageSwitch() {
  const { lang, t, setLang } = useI18n();
  return (
    <div class="lang-switch">
      <label for="lang">{t('lang.label')}</label>
      <select id="lang" value={lang} onChange={(event) => setLang(event.currentTarget.value as Lang)}>
        {LANGS.map((option) => (
          // Each language names itself, in itself.
          <option key={option} value={option} lang={option}>
            {t(`lang.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Layout({ children }: { children: ComponentChildren }) {
  const { t } = useI18n();
  const { me, signOut } = useSession();
  const page = useRoute().path[0] ?? '';
  // The scheduled transfers are a view of the transfers (a tab of their page): the header keeps its one line.
  const current = page === 'scheduled' ? 'transfers' : page;
  const identity = `${me.name} · ${t(`role.${me.role}`)}`;
  return (
    <div class="shell">
      {/* The page's address is its hash route: the skip link moves the focus, not the address. */}
      <button type="button" class="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {t('nav.skip')}
      </button>
      <header class="top">
        <span class="brand">giro</span>
        <nav aria-label={t('nav.label')}>
          <ul>
            {NAV.filter((item) => item.needs === undefined || can(me.role, item.needs)).map((item) => (
              <li key={item.path}>
                <a href={href(item.path)} aria-current={item.path === current ? 'page' : undefined}>
                  {t(item.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          {/* The name only, the role on hover (and for screen readers): both together were cut at a laptop's width. */}
          <span class="who-name" data-testid="signed-in-as" title={identity}>
            <span translate={false}>{me.name}</span>
            <span class="visually-hidden"> · {t(`role.${me.role}`)}</span>
          </span>
          <LanguageSwitch />
          <button type="button" onClick={signOut} title={identity}>
            {t('signOut')}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="foot muted">{t('footer.times')}</footer>
    </div>
  );
}
