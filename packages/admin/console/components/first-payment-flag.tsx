import type { Movement } from '../api/types';
import { useI18n } from '../i18n/i18n';

/** "Primera transferencia a esta cuenta": shown for a transfer held because its account was never paid. */
export function FirstPaymentFlag({ movement }: { movement: Movement }) {
  const { t } = useI18n();
  if (!movement.approval?.holds?.some((hold) => hold.reason === 'new_payee')) return null;
  return (
    <small class="notice-error" data-testid="first-payment">
      {' '}
      {t('payees.firstPayment')}
    </small>
  );
}
