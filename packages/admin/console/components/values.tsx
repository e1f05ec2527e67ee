import type { Party, Status } from '../api/types';
import { formatMoney, formatTime } from '../format';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';

export function StatusBadge({ status }: { status: Status }) {
  const { t } = useI18n();
  return <span class={`status status-${status.toLowerCase().replace('_', '-')}`}>{t(statusKey(status))}</span>;
}

export const statusKey = (status: Status): MessageKey => `status.${status}`;

export function Money({ amount, currencyId }: { amount: string; currencyId: string }) {
  const { lang } = useI18n();
  return <span class="money">{formatMoney(amount, currencyId, lang)}</span>;
}

export function Time({ at }: { at: string | null | undefined }) {
  const { lang } = useI18n();
  if (!at) return <span class="muted">—</span>;
  return <time dateTime={at}>{formatTime(at, lang)}</time>;
}

/** An account and its holder's CUIT/CUIL. */
export function PartyText({ party }: { party: Party }) {
  return (
    <span class="party">
      <span class="mono account">{party.address}</span>
      <small class="muted">CUIT {party.owner.personId}</small>
    </span>
  );
}
