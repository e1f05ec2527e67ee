import { useState } from 'preact/hooks';
import { totalsByCurrency } from '../amounts';
import { type RefusedItem, withCurrentStatus } from '../api/refused-items';
import type { DecisionItem, Me, Movement, Page } from '../api/types';
import { TextField } from '../components/fields';
import { FirstPaymentFlag } from '../components/first-payment-flag';
import { ErrorNotice, SuccessNotice } from '../components/notices';
import { DataTable } from '../components/table';
import { Money, PartyText, Time } from '../components/values';
import { formatTotals } from '../format';
import { useI18n } from '../i18n/i18n';
import { refusalText } from '../i18n/refusals';
import { barredBecause, can } from '../permissions';
import { href } from '../router';
import { toggled } from '../selection';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 100;

/** Who created a transfer: its first history row (the intent) names the key. */
export function creatorOf(movement: Movement) {
  return (movement.history.find((entry) => entry.source === 'intent') ?? movement.history[0])?.by;
}

/** The signed-in key created it: the API refuses its approval (maker–checker), so the console does not offer it. */
export function isOwn(movement: Movement, me: Me): boolean {
  return creatorOf(movement)?.keyId === me.keyId;
}

export function Approvals() {
  const { t, lang } = useI18n();
  const { api, me } = useSession();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<{
    done?: { decision: 'approve' | 'reject'; count: number };
    refused: RefusedItem<DecisionItem>[];
    error?: unknown;
  }>({ refused: [] });
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<Movement>>('admin/transfers', { status: 'AWAITING_APPROVAL', sort: 'createdAt', limit: PAGE_SIZE }),
    [],
  );
  const mayDecide = can(me.role, 'approve');
  // The bootstrap admin token may reject but never approve: its approve buttons are shown disabled, saying why.
  const approveBarred = barredBecause(me, 'approve');
  const barredProps = approveBarred && {
    disabled: true,
    title: t(approveBarred),
    'aria-describedby': 'approve-barred',
  };

  const toggle = (originId: number) => setSelected((current) => toggled(current, originId));
  // Only the ticked rows still listed: one decided elsewhere meanwhile is gone from the list, and from the total.
  const chosen = (data?.items ?? []).filter((movement) => selected.has(movement.originId));
  const chosenTotal = formatTotals(totalsByCurrency(chosen), lang);
  /** "Aprobar 3 transferencias por $ 12.345,00". */
  const decisionLabel = (decision: 'approve' | 'reject') =>
    t(`approvals.${decision}${chosen.length === 1 ? 'One' : 'Many'}`, { count: chosen.length, total: chosenTotal });

  const decide = async (decision: 'approve' | 'reject', originIds: number[]) => {
    try {
      const body = decision === 'approve' ? { originIds } : { originIds, reason: reason.trim() };
      const { items } = await api.post<{ items: DecisionItem[] }>(`admin/transfers/${decision}`, body);
      // A refusal names the status the transfer is in now (decided by someone else, expired).
      const refused = await withCurrentStatus(api, items);
      setOutcome({ done: { decision, count: items.length - refused.length }, refused });
      setSelected((current) => new Set([...current].filter((originId) => !originIds.includes(originId))));
      reload();
    } catch (failure) {
      setOutcome({ refused: [], error: failure });
    }
  };

  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">{t('approvals.title')}</h1>
      <p>{t('approvals.explain')}</p>
      {mayDecide && approveBarred && (
        <p id="approve-barred" class="notice">
          {t(approveBarred)}
        </p>
      )}
      <ErrorNotice error={error} />
      <ErrorNotice error={outcome.error} />
      <SuccessNotice
        text={
          outcome.done &&
          t(outcome.done.decision === 'approve' ? 'approvals.approved' : 'approvals.rejected', {
            count: outcome.done.count,
          })
        }
      />
      {outcome.refused.map((item) => (
        <p key={item.originId} class="notice notice-error" role="alert">
          #{item.originId}:{' '}
          {refusalText(
            { code: item.error?.code, errorName: item.error?.name, status: 409, body: { status: item.status } },
            lang,
          )}
        </p>
      ))}
      {data && data.items.length === 0 && <p class="muted">{t('approvals.none')}</p>}
      {data && data.items.length > 0 && (
        <DataTable
          columns={[
            mayDecide && t('table.select'),
            t('field.originId'),
            t('field.createdAt'),
            { text: t('field.amount'), numeric: true },
            t('field.to'),
            t('field.description'),
            t('approvals.expires'),
            mayDecide && t('approvals.actions'),
          ]}
        >
          {data.items.map((movement) => {
            const own = isOwn(movement, me);
            return (
              <tr key={movement.originId} data-origin-id={movement.originId}>
                {mayDecide && (
                  <td>
                    <input
                      type="checkbox"
                      id={`decide-${movement.originId}`}
                      aria-label={t('approvals.select', { originId: movement.originId })}
                      aria-describedby={own ? `own-${movement.originId}` : undefined}
                      disabled={own}
                      checked={selected.has(movement.originId)}
                      onChange={() => toggle(movement.originId)}
                    />
                    {own && (
                      <small id={`own-${movement.originId}`} class="muted">
                        {' '}
                        {t('approvals.own')}
                      </small>
                    )}
                  </td>
                )}
                <td>
                  <a href={href(`transfers/${movement.originId}`)}>{movement.originId}</a>
                </td>
                <td>
                  <span class="stacked">
                    <Time at={movement.createdAt} />
                    <small class="muted">
                      {t('approvals.creator')} <span translate={false}>{creatorOf(movement)?.name ?? '—'}</span>
                    </small>
                  </span>
                </td>
                <td class="num">
                  <Money amount={movement.amount} currencyId={movement.currencyId} />
                </td>
                <td>
                  <PartyText party={movement.to} />
                  <FirstPaymentFlag movement={movement} />
                </td>
                <td class="description" translate={false}>
                  {movement.description}
                </td>
                <td>
                  <Time at={movement.approval?.expiresAt} />
                </td>
                {mayDecide && (
                  <td class="row-actions">
                    {!own && (
                      <>
                        <button
                          type="button"
                          class="primary"
                          aria-label={t('approvals.approveRowLabel', { originId: movement.originId })}
                          onClick={() => decide('approve', [movement.originId])}
                          {...barredProps}
                        >
                          {t('approvals.approveRow')}
                        </button>
                        <button
                          type="button"
                          class="danger"
                          aria-label={t('approvals.rejectRowLabel', { originId: movement.originId })}
                          title={reason.trim() === '' ? t('approvals.reasonFirst') : undefined}
                          disabled={reason.trim() === ''}
                          onClick={() => decide('reject', [movement.originId])}
                        >
                          {t('approvals.rejectRow')}
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </DataTable>
      )}
      {mayDecide && data && data.items.length > 0 && (
        <>
          <TextField
            id="reject-reason"
            label={t('approvals.reason')}
            hint={t('approvals.reasonFirst')}
            value={reason}
            onInput={setReason}
            maxLength={500}
          />
          {chosen.length > 0 && <SelectedPreview movements={chosen} />}
          {chosen.length === 0 ? (
            <p class="muted">{t('approvals.chooseSome')}</p>
          ) : (
            <div class="actions">
              <button
                type="button"
                class="primary"
                onClick={() =>
                  decide(
                    'approve',
                    chosen.map((movement) => movement.originId),
                  )
                }
                {...barredProps}
              >
                {decisionLabel('approve')}
              </button>
              <button
                type="button"
                class="danger"
                disabled={reason.trim() === ''}
                onClick={() =>
                  decide(
                    'reject',
                    chosen.map((movement) => movement.originId),
                  )
                }
              >
                {decisionLabel('reject')}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The ticked transfers' money before they are decided: each one's amount, payee and description, and the total. */
function SelectedPreview({ movements }: { movements: Movement[] }) {
  const { t, lang } = useI18n();
  return (
    <>
      <h2>{t('approvals.selectedTitle')}</h2>
      <DataTable
        class="approvals-selected"
        columns={[
          t('field.originId'),
          { text: t('field.amount'), numeric: true },
          t('field.to'),
          t('field.description'),
        ]}
      >
        {movements.map((movement) => (
          <tr key={movement.originId} data-selected={movement.originId}>
            <td>{movement.originId}</td>
            <td class="num">
              <Money amount={movement.amount} currencyId={movement.currencyId} />
            </td>
            <td>
              <PartyText party={movement.to} />
              <FirstPaymentFlag movement={movement} />
            </td>
            <td class="description" translate={false}>
              {movement.description}
            </td>
          </tr>
        ))}
        <tr class="batch-total" data-total="selected">
          <th scope="row">{t('approvals.selectedTotal')}</th>
          <td class="num">
            <strong>{formatTotals(totalsByCurrency(movements), lang)}</strong>
          </td>
          <td colSpan={2}>
            {t(movements.length === 1 ? 'approvals.selectedCountOne' : 'approvals.selectedCount', {
              count: movements.length,
            })}
          </td>
        </tr>
      </DataTable>
    </>
  );
}
