import { useState } from 'preact/hooks';
import type { Movement } from '../api/types';
import { formatMoney } from '../format';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session';
import { ConfirmDialog } from './confirm-dialog';
import { ErrorNotice } from './notices';

/**
 * Cancel one scheduled transfer from its own page (`POST /admin/transfers/:originId/cancel`), once a dialog naming
 * it and its amount was answered yes. A transfer released meanwhile is refused (409), said in the page's language.
 */
export function CancelScheduled({ movement, onCanceled }: { movement: Movement; onCanceled(): void }) {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>();

  const cancel = async () => {
    setConfirming(false);
    setError(undefined);
    try {
      await api.post<Movement>(`admin/transfers/${movement.originId}/cancel`);
      onCanceled();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <div class="actions">
      <button type="button" class="danger" onClick={() => setConfirming(true)}>
        {t('detail.cancelScheduled')}
      </button>
      <ErrorNotice error={error} />
      {confirming && (
        <ConfirmDialog
          title={t('scheduled.confirmTitle')}
          confirmLabel={t('scheduled.confirm')}
          cancelLabel={t('scheduled.keep')}
          onConfirm={cancel}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <strong>
              {t('detail.cancelConfirm', {
                originId: movement.originId,
                total: formatMoney(movement.amount, movement.currencyId, lang),
              })}
            </strong>
          </p>
          <p>{t('scheduled.confirmText')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
