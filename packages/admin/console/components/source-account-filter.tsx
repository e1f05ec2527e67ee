import { fetchSendingOptions, type SendingAccount } from '../api/sending-options';
import { type Translate, useI18n } from '../i18n/i18n';
import { useSession } from '../session';
import { useLoad } from '../use-load';
import { SelectField, TextField } from './fields';

/**
 * A listing's source-account filter: a choice among the accounts transfers are sent from here (`GET
 * /admin/transfer-options`, and in PSP mode the enabled client sub-accounts), "all" first; typed where any account
 * is taken (no configured list) or the list could not be read. An account in the address that is not (or no
 * longer) on the list stays chosen, for the API to answer about it.
 */
export function SourceAccountFilter({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  const { api } = useSession();
  const { data, error: loadError } = useLoad(() => fetchSendingOptions(api), []);
  const label = t('filter.account');
  if (loadError !== undefined || data?.accounts === null) {
    return (
      <TextField
        id={id}
        label={label}
        inputMode="numeric"
        maxLength={22}
        value={value}
        onInput={onChange}
        error={error}
      />
    );
  }
  const accounts = data?.accounts ?? [];
  const listed = value === '' || accounts.some((account) => account.address === value);
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      options={[
        { value: '', label: t('filter.anyAccount') },
        ...accounts.map((account) => ({ value: account.address, label: accountLabel(account, t) })),
        ...(listed ? [] : [{ value, label: value }]),
      ]}
    />
  );
}

/**
 * An account as a choice names it: its number, and for a client's sub-account whose it is. Short enough for a
 * select a third of a laptop wide; the holder's CUIT goes under it (`accountHolder`).
 */
export function accountLabel(account: SendingAccount, t: Translate): string {
  return account.subAccount && account.ownerName
    ? `${account.address} · ${t('create.subAccount')} ${account.ownerName}`
    : account.address;
}

/** The holder of the account chosen, under the choice: `CUIT 30712345671`. */
export const accountHolder = (account: SendingAccount | undefined): string | undefined =>
  account && `CUIT ${account.ownerPersonId}`;
