import { useState } from 'preact/hooks';
import { type RefusedItem, withCurrentStatus } from '../api/refused-items';
import type { DecisionItem, Movement } from '../api/types';
import { useI18n } from '../i18n/i18n';
import { refusalText } from '../i18n/refusals';
import { isOwn } from '../pages/approvals';
import { barredBecause } from '../permissions';
import { useSession } from '../session';
import { TextField } from './fields';
import { ErrorNotice } from './notices';

/**
 * Approve or reject one transfer that awaits approval, from its own page: the bulk routes with a single originId,
 * so the rules (not one's own, a reason to reject) are the Aprobaciones page's.
 */
export function DecideTransfer({
  movement,
  onDecided,
}: {
  movement: Movement;
  /** Said once the API took the decision: the page reloads the transfer (and this form goes with its status). */
  onDecided(decision: 'approve' | 'reject'): void;
}) {
  const { t, lang } = useI18n();
  const { api, me } = useSession();
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<{ refused?: RefusedItem<DecisionItem>; error?: unknown }>({});

  if (isOwn(movement, me)) return <p class="muted">{t('approvals.own')}</p>;
  const approveBarred = barredBecause(me, 'approve');

  const decide = async (decision: 'approve' | 'reject') => {
    try {
      const originIds = [movement.originId];
      const body = decision === 'approve' ? { originIds } : { originIds, reason: reason.trim() };
      const { items } = await api.post<{ items: DecisionItem[] }>(`admin/transfers/${decision}`, body);
      const [refused] = await withCurrentStatus(api, items);
      setOutcome(refused ? { refused } : {});
      if (!refused) onDecided(decision);
    } catch (failure) {
      setOutcome({ error: failure });
    }
  };

  return (
    <div class="actions decide">
      <button
        type="button"
        class="primary"
        onClick={() => decide('approve')}
        disabled={approveBarred !== undefined}
        title={approveBarred && t(approveBarred)}
        aria-describedby={approveBarred && 'detail-approve-barred'}
      >
        {t('detail.approve')}
      </button>
      {approveBarred && (
        <p id="detail-approve-barred" class="muted decide-note">
          {t(approveBarred)}
        </p>
      )}
      <TextField
        id="detail-reject-reason"
        label={t('approvals.reason')}
        value={reason}
        onInput={setReason}
        maxLength={500}
      />
      <button type="button" class="danger" disabled={reason.trim() === ''} onClick={() => decide('reject')}>
        {t('detail.reject')}
      </button>
      <ErrorNotice error={outcome.error} />
      {outcome.refused?.error && (
        <p class="notice notice-error" role="alert">
          {refusalText(
            {
              code: outcome.refused.error.code,
              errorName: outcome.refused.error.name,
              body: { status: outcome.refused.status },
            },
            lang,
          )}
        </p>
      )}
    </div>
  );
}
