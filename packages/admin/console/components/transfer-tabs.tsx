import { useI18n } from '../i18n/i18n';
import { href } from '../router';

/** The transfers' two views, as tabs under the header's "Transferencias": every transfer, and the scheduled ones. */
export function TransferTabs({ current }: { current: 'transfers' | 'scheduled' }) {
  const { t } = useI18n();
  return (
    <nav class="tabs" aria-label={t('tabs.label')}>
      <a href={href('transfers')} aria-current={current === 'transfers' ? 'page' : undefined}>
        {t('tabs.all')}
      </a>
      <a href={href('scheduled')} aria-current={current === 'scheduled' ? 'page' : undefined}>
        {t('nav.scheduled')}
      </a>
    </nav>
  );
}
