import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { type Anomaly, type BankDetails, isFinal, type Movement } from '../api/types';
import { CancelScheduled } from '../components/cancel-scheduled';
import { DecideTransfer } from '../components/decide-transfer';
import { FirstPaymentFlag } from '../components/first-payment-flag';
import { describeError, ErrorNotice, SuccessNotice } from '../components/notices';
import { AnomalyReason, CancellationReason } from '../components/reasons';
import { ResolveAnomaly } from '../components/resolve-anomaly';
import { ScheduleText } from '../components/schedule-text';
import { Money, PartyText, StatusBadge, Time } from '../components/values';
import { typedDay } from '../days';
import { formatTime } from '../format';
import { type I18n, useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { can } from '../permissions';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const LIVE_MS = 2_000;

const DECIDED = { approve: 'detail.approved', reject: 'detail.rejected', cancel: 'detail.canceled' } as const;

/**
 * A refresh or raw query asked sooner than the polling rule allows is answered 429: its `Retry-After` (and the
 * body's `retryAt`) say when the bank may be asked again.
 */
function describeQueryError(error: unknown, i18n: Pick<I18n, 't' | 'lang'>): string {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined) {
    return i18n.t('detail.tooSoon', { seconds: error.retryAfterSeconds });
  }
  return describeError(error, i18n);
}

export function TransferDetail({ originId }: { originId: number }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { api, me } = useSession();
  const {
    data: movement,
    error,
    reload,
  } = useLoad(
    () => api.get<Movement>(`admin/transfers/${originId}`),
    [originId],
    (shown) => (isFinal(shown.status) ? undefined : LIVE_MS),
  );
  // What the last refresh or raw query came to, shown in the language of the moment.
  const [queryNotice, setQueryNotice] = useState<{ ok?: boolean; failed?: unknown }>({});
  const [raw, setRaw] = useState<unknown>();
  const [decided, setDecided] = useState<'approve' | 'reject' | 'cancel'>();

  const refresh = async () => {
    setQueryNotice({});
    try {
      await api.post<Movement>(`admin/transfers/${originId}/refresh`);
      setQueryNotice({ ok: true });
      reload();
    } catch (failure) {
      setQueryNotice({ failed: failure });
    }
  };
  const showRaw = async () => {
    setQueryNotice({});
    try {
      setRaw(await api.get<unknown>(`admin/transfers/${originId}/raw`));
    } catch (failure) {
      setQueryNotice({ failed: failure });
    }
  };

  if (movement === undefined) {
    return (
      <section>
        <h1>{t('detail.title', { originId })}</h1>
        {error ? <ErrorNotice error={error} /> : <p>{t('loading')}</p>}
      </section>
    );
  }
  // A transfer never sent (held, rejected, scheduled, canceled before its moment) has nothing to ask the bank about.
  const sent = !['AWAITING_APPROVAL', 'REJECTED', 'SCHEDULED', 'CANCELED'].includes(movement.status);
  return (
    <section aria-labelledby="detail-title">
      <h1 id="detail-title">
        {t('detail.title', { originId })} <StatusBadge status={movement.status} />
      </h1>
      <ErrorNotice error={error} />
      {can(me.role, 'refresh') && sent && (
        <div class="actions">
          <button type="button" onClick={refresh}>
            {t('detail.refresh')}
          </button>
          <button type="button" onClick={showRaw}>
            {t('detail.raw')}
          </button>
        </div>
      )}
      {movement.status === 'AWAITING_APPROVAL' && can(me.role, 'approve') && (
        <DecideTransfer
          movement={movement}
          onDecided={(decision) => {
            setDecided(decision);
            reload();
          }}
        />
      )}
      {movement.status === 'SCHEDULED' && can(me.role, 'cancelScheduled') && (
        <CancelScheduled
          movement={movement}
          onCanceled={() => {
            setDecided('cancel');
            reload();
          }}
        />
      )}
      <SuccessNotice text={decided && t(DECIDED[decided])} />
      <SuccessNotice text={queryNotice.ok ? t('detail.refreshed') : undefined} />
      {queryNotice.failed !== undefined && (
        <p class="notice notice-error" role="alert">
          {describeQueryError(queryNotice.failed, i18n)}
        </p>
      )}
      {raw !== undefined && (
        <details open class="raw">
          <summary>{t('detail.rawTitle')}</summary>
          <pre>{JSON.stringify(raw, null, 2)}</pre>
        </details>
      )}
      <div class="cards">
        <Summary movement={movement} />
        <Timeline movement={movement} />
        <BankSection bank={movement.bank} title={t('detail.bank')} failed={movement.status === 'FAILED'} />
      </div>
      {movement.cancellation && (
        <article class="card">
          <h2>{t('detail.cancellation')}</h2>
          <dl>
            <dt>{t('field.amount')}</dt>
            <dd>
              <Money amount={movement.cancellation.amount} currencyId={movement.cancellation.currencyId} />
            </dd>
            <dt>{t('field.reason')}</dt>
            <dd>
              <CancellationReason reason={movement.cancellation.reason} />
            </dd>
            <dt>{t('cancellations.registered')}</dt>
            <dd>
              {movement.cancellation.acknowledgedAt ? (
                <>
                  <Time at={movement.cancellation.acknowledgedAt} />{' '}
                  <span translate={false}>{movement.cancellation.reference ?? ''}</span>{' '}
                  <span translate={false}>{movement.cancellation.acknowledgedBy?.name ?? ''}</span>
                </>
              ) : (
                t('cancellations.pending')
              )}
            </dd>
          </dl>
        </article>
      )}
      <Anomalies anomalies={movement.anomalies} onResolved={reload} />
    </section>
  );
}

function Summary({ movement }: { movement: Movement }) {
  const { t } = useI18n();
  return (
    <article class="card">
      <h2>{t('detail.summary')}</h2>
      <dl>
        <dt>{t('field.amount')}</dt>
        <dd>
          <Money amount={movement.amount} currencyId={movement.currencyId} />
        </dd>
        <dt>{t('field.from')}</dt>
        <dd>
          <PartyText party={movement.from} />
        </dd>
        <dt>{t('field.to')}</dt>
        <dd>
          <PartyText party={movement.to} />
        </dd>
        <dt>{t('field.description')}</dt>
        <dd class="description" translate={false}>
          {movement.description}
        </dd>
        <dt>{t('field.concept')}</dt>
        <dd translate={false}>{movement.concept}</dd>
        {movement.schedule && (
          <>
            <dt>{t('detail.executeAt')}</dt>
            <dd data-testid="schedule-execute-at">
              <ScheduleText schedule={movement.schedule} />
            </dd>
            <dt>{t('detail.requested')}</dt>
            <dd data-testid="schedule-requested">
              <RequestedText requested={movement.schedule.requested} />
            </dd>
          </>
        )}
        <dt>{t('field.networkId')}</dt>
        <dd class="mono">{movement.networkId ?? '—'}</dd>
        <dt>{t('field.createdAt')}</dt>
        <dd>
          <Time at={movement.createdAt} />
        </dd>
        <dt>{t('field.lastAnswerAt')}</dt>
        <dd>
          <Time at={movement.lastAnswerAt} />
        </dd>
        <dt>{t('field.nextQueryAt')}</dt>
        <dd>
          <Time at={movement.nextQueryAt} />
        </dd>
        <dt>{t('field.attempts')}</dt>
        <dd>
          {movement.attempts} / {movement.queries}
        </dd>
        {/* giro's account of the last failed call, in English for logs: folded, marked as English, and only while
            it still matters (a final transfer's reason is its cancellation's). */}
        {movement.lastError && !isFinal(movement.status) && (
          <>
            <dt>{t('field.lastError')}</dt>
            <dd>
              <details>
                <summary>{t('detail.technical')}</summary>
                <code lang="en" translate={false}>
                  {movement.lastError}
                </code>
              </details>
            </dd>
          </>
        )}
        {movement.approval && (
          <>
            <dt>{t('field.approval')}</dt>
            <dd>
              {movement.approval.decision === null ? (
                <>
                  {t('approval.waitingUntil')} <Time at={movement.approval.expiresAt} />
                  <FirstPaymentFlag movement={movement} />
                </>
              ) : (
                <>
                  {t(`approval.${movement.approval.decision}`)}{' '}
                  <span translate={false}>{movement.approval.decidedBy?.name ?? ''}</span>{' '}
                  <Time at={movement.approval.decidedAt} /> <q translate={false}>{movement.approval.reason ?? ''}</q>
                </>
              )}
            </dd>
          </>
        )}
      </dl>
    </article>
  );
}

function Timeline({ movement }: { movement: Movement }) {
  const { t } = useI18n();
  return (
    <article class="card">
      <h2>{t('detail.timeline')}</h2>
      <ol class="timeline">
        {movement.history.map((entry, index) => (
          // History rows are append-only: their position is their identity.
          <li key={index}>
            <Time at={entry.at} /> <StatusBadge status={entry.to} />{' '}
            <span class="muted">{t(`source.${entry.source}` as MessageKey)}</span>
            {entry.by && (
              <span class="muted" translate={false}>
                {' · '}
                {entry.by.name}
              </span>
            )}
            {entry.reason && (
              <q class="muted" translate={false}>
                {entry.reason}
              </q>
            )}
          </li>
        ))}
      </ol>
    </article>
  );
}

/**
 * What the bank's answer says. Its `completedDatetime` is when the bank closed the movement, whichever way: for a
 * FAILED transfer that is the failure's time, and is labelled so.
 */
function BankSection({ bank, title, failed = false }: { bank: BankDetails | null; title: string; failed?: boolean }) {
  const { t } = useI18n();
  return (
    <article class="card">
      <h2>{title}</h2>
      {bank === null ? (
        <p class="muted">{t('detail.noBankAnswer')}</p>
      ) : (
        <dl>
          <dt>{t('bank.movementId')}</dt>
          <dd class="mono">{bank.movementId ?? '—'}</dd>
          <dt>{t('bank.type')}</dt>
          <dd translate={false}>{[bank.type, bank.typeDescription].filter(Boolean).join(' — ') || '—'}</dd>
          <dt>{t('bank.network')}</dt>
          <dd>{[bank.network, bank.networkId].filter(Boolean).join(' · ') || '—'}</dd>
          <dt>{t('bank.posted')}</dt>
          <dd>
            <Time at={bank.postingDatetime} />
          </dd>
          <dt>{t(failed ? 'bank.failedAt' : 'bank.completed')}</dt>
          <dd>
            <Time at={bank.completedDatetime} />
          </dd>
          <dt>{t('bank.motive')}</dt>
          {/* The bank's own words, quoted as they came. */}
          <dd translate={false}>{[bank.motiveCode, bank.message].filter(Boolean).join(' — ') || '—'}</dd>
          <dt>{t('bank.counterparty')}</dt>
          <dd class="mono" translate={false}>
            {bank.counterparty
              ? [bank.counterparty.personName, bank.counterparty.personId, bank.counterparty.accountRouting?.address]
                  .filter(Boolean)
                  .join(' · ')
              : '—'}
          </dd>
          <dt>{t('bank.thisSubAccount')}</dt>
          <dd class="mono" translate={false}>
            {bank.thisSubAccount
              ? [
                  bank.thisSubAccount.owners?.personName,
                  bank.thisSubAccount.owners?.personId,
                  bank.thisSubAccount.accountRouting?.address,
                ]
                  .filter(Boolean)
                  .join(' · ')
              : '—'}
          </dd>
        </dl>
      )}
    </article>
  );
}

function Anomalies({ anomalies, onResolved }: { anomalies: Anomaly[]; onResolved(): void }) {
  const { t, tm } = useI18n();
  if (anomalies.length === 0) return null;
  return (
    <article class="card">
      <h2>{t('detail.anomalies')}</h2>
      <ul class="plain">
        {anomalies.map((anomaly) => (
          <li key={anomaly.id} class="anomaly">
            <p>
              <Time at={anomaly.at} /> {t('anomaly.claimed')} <StatusBadge status={anomaly.claimed} />{' '}
              <AnomalyReason anomaly={anomaly} />
            </p>
            {anomaly.bank && <BankSection bank={anomaly.bank} title={t('anomaly.bankSaid')} />}
            {anomaly.resolution ? (
              <p class="muted">
                {tm('anomaly.resolvedBy', { name: anomaly.resolution.by.name })} <Time at={anomaly.resolution.at} /> —{' '}
                <q translate={false}>{anomaly.resolution.note}</q>
              </p>
            ) : (
              <ResolveAnomaly anomaly={anomaly} onResolved={onResolved} />
            )}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** What the request asked for: a day (`el día 25/12/2026`) or a moment. */
function RequestedText({ requested }: { requested: NonNullable<Movement['schedule']>['requested'] }) {
  const { t, lang } = useI18n();
  if ('executeOn' in requested) return <>{t('detail.requestedDay', { day: typedDay(requested.executeOn) })}</>;
  return <>{t('detail.requestedMoment', { moment: formatTime(requested.executeAt, lang) })}</>;
}
