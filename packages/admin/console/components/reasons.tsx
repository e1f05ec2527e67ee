import type { Anomaly, Cancellation, UnknownDebit } from '../api/types';
import { typedDay } from '../days';
import { formatMoney } from '../format';
import { useI18n } from '../i18n/i18n';
import { statusKey } from './values';

/** Why a transfer has a cancellation, from its `kind` (and the bank's code when it gave one): never giro's English. */
export function CancellationReason({ reason }: { reason: Cancellation['reason'] }) {
  const { t } = useI18n();
  return (
    <span>
      {t(reason.kind === 'failed' ? 'cancellation.failed' : 'cancellation.refused')}
      {reason.code !== null && (
        <>
          {' '}
          <span class="mono" translate={false}>
            ({reason.code})
          </span>
        </>
      )}
    </span>
  );
}

/**
 * What an anomaly is, said from its statuses. giro's own account of it is English for logs: offered on hover,
 * marked as English, never as the page's text.
 */
export function AnomalyReason({ anomaly }: { anomaly: Pick<Anomaly, 'status' | 'claimed' | 'reason'> }) {
  const { t } = useI18n();
  const said = { claimed: t(statusKey(anomaly.claimed)) };
  return (
    <span title={anomaly.reason ?? undefined}>
      {anomaly.status === null
        ? t('anomaly.explainClaimed', said)
        : t('anomaly.explain', { ...said, kept: t(statusKey(anomaly.status)) })}
    </span>
  );
}

/** The peso (ISO 4217 numeric): a statement is of a CBU or CVU, and names no currency. */
const PESOS = '032';

/** What a debit no transfer explains is: the statement's line said in the page's language (giro's English on hover). */
export function UnknownDebitReason({ debit }: { debit: UnknownDebit }) {
  const { t, lang } = useI18n();
  const { amount, date, reference } = debit.statement;
  const debited = formatMoney(amount.replace(/^-/, ''), PESOS, lang);
  return (
    <span title={debit.reason}>{t('anomaly.unknownDebit', { amount: debited, date: typedDay(date), reference })}</span>
  );
}
