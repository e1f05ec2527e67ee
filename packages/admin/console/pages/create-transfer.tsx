import { useEffect, useState } from 'preact/hooks';
import { toApiDecimal } from '../amounts';
import { ApiError } from '../api/client';
import { fetchSendingOptions } from '../api/sending-options';
import type { Movement, Violation } from '../api/types';
import { SelectField, TextField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { accountHolder, accountLabel } from '../components/source-account-filter';
import { toApiDay } from '../days';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages-es';
import { violationText } from '../i18n/violations';
import { navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

/** The transfer request's fields as the admin API names them in a 400's `violations` (`body.amount`). */
const FIELDS = [
  'originId',
  'from.address',
  'from.owner.personId',
  'to.address',
  'to.owner.personId',
  'body.currencyId',
  'body.amount',
  'body.description',
  'body.concept',
  'executeOn',
] as const;
type FieldName = (typeof FIELDS)[number];

const LABELS: Record<FieldName, MessageKey> = {
  originId: 'create.originId',
  'from.address': 'create.fromAddress',
  'from.owner.personId': 'create.fromCuit',
  'to.address': 'create.toAddress',
  'to.owner.personId': 'create.toCuit',
  'body.currencyId': 'create.currency',
  'body.amount': 'create.amount',
  'body.description': 'create.description',
  'body.concept': 'create.concept',
  executeOn: 'create.executeOn',
};

/** The currencies' names beside their codes, for those a back office knows by name. */
const CURRENCY_NAMES: Record<string, string> = { '032': 'ARS', '840': 'USD' };

const EMPTY: Record<FieldName, string> = {
  originId: '',
  'from.address': '',
  'from.owner.personId': '',
  'to.address': '',
  'to.owner.personId': '',
  'body.currencyId': '032',
  'body.amount': '',
  'body.description': '',
  'body.concept': 'VAR',
  executeOn: '',
};

/** The bank's request shape (docs/bank-api.md#request-fields) from the form; the API validates every field. */
function requestOf(form: Record<FieldName, string>) {
  const party = (prefix: 'from' | 'to') => ({
    addressType: 'CBU_CVU',
    address: form[`${prefix}.address`].trim(),
    owner: { personIdType: 'CUI', personId: form[`${prefix}.owner.personId`].trim() },
  });
  const originId = form.originId.trim();
  const executeOn = form.executeOn.trim();
  return {
    ...(originId !== '' && { originId: /^\d+$/.test(originId) ? Number(originId) : originId }),
    // Typed day first (`28/12/2026`), as the API reads days (`2026-12-28`).
    ...(executeOn !== '' && { executeOn: toApiDay(executeOn) }),
    from: party('from'),
    to: party('to'),
    body: {
      currencyId: form['body.currencyId'],
      amount: toApiDecimal(form['body.amount']),
      description: form['body.description'],
      concept: form['body.concept'],
    },
  };
}

/** A violation's field shown beside the form field it names (`from.address`), or else above the form. */
const fieldOf = (violation: Violation): FieldName | undefined =>
  FIELDS.find((field) => violation.field === field || violation.field.startsWith(`${field}.`));

export function CreateTransfer() {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const [form, setForm] = useState(EMPTY);
  // Only what the module sends is offered: its currencies and concepts, and its source accounts when configured.
  const { data: sending, error: sendingError } = useLoad(() => fetchSendingOptions(api), []);
  const accounts = sending?.accounts ?? null;
  const chooseAccount = (address: string) => {
    const account = accounts?.find((found) => found.address === address);
    setForm((current) => ({
      ...current,
      'from.address': address,
      'from.owner.personId': account?.ownerPersonId ?? '',
    }));
  };
  useEffect(() => {
    // The first account is the one a form starts with: the field is never blank when only listed ones may send.
    if (accounts !== null && accounts.length > 0 && form['from.address'] === '') chooseAccount(accounts[0].address);
  }, [accounts]);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const violations = error instanceof ApiError ? error.violations : [];
  const errorOf = (field: FieldName) =>
    violations
      .filter((violation) => fieldOf(violation) === field)
      .map((violation) => violationText(violation, lang))
      .join('; ') || undefined;
  const unplaced = violations.filter((violation) => fieldOf(violation) === undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const movement = await api.post<Movement>('admin/transfers', requestOf(form));
      navigate(`transfers/${movement.originId}`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const text = (
    field: FieldName,
    extra: { inputMode?: 'numeric' | 'decimal'; maxLength?: number; hint?: MessageKey } = {},
  ) => (
    <TextField
      id={`create-${field.replace(/\./g, '-')}`}
      label={t(LABELS[field])}
      value={form[field]}
      onInput={(value) => setForm((current) => ({ ...current, [field]: value }))}
      error={errorOf(field)}
      inputMode={extra.inputMode}
      maxLength={extra.maxLength}
      hint={extra.hint && t(extra.hint)}
    />
  );

  return (
    <section aria-labelledby="create-title">
      <h1 id="create-title">{t('create.title')}</h1>
      <ErrorNotice error={sendingError} />
      {error !== undefined &&
        (violations.length === 0 ? (
          <ErrorNotice error={error} />
        ) : (
          <div class="notice notice-error" role="alert">
            <p>{t('create.invalid')}</p>
            {unplaced.length > 0 && (
              <ul>
                {unplaced.map((violation) => (
                  <li key={`${violation.field}:${violation.rule}`}>
                    {violation.field}: {violationText(violation, lang)}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      <form onSubmit={submit} class="grid-form" noValidate>
        <fieldset>
          <legend>{t('create.source')}</legend>
          {accounts === null ? (
            <>
              {text('from.address', { inputMode: 'numeric', maxLength: 22 })}
              {text('from.owner.personId', { inputMode: 'numeric', maxLength: 11 })}
            </>
          ) : (
            <SelectField
              id="create-from-address"
              label={t('create.fromAccount')}
              value={form['from.address']}
              onChange={chooseAccount}
              error={errorOf('from.address') ?? errorOf('from.owner.personId')}
              hint={accountHolder(accounts.find((account) => account.address === form['from.address']))}
              options={accounts.map((account) => ({ value: account.address, label: accountLabel(account, t) }))}
            />
          )}
        </fieldset>
        <fieldset>
          <legend>{t('create.destination')}</legend>
          {text('to.address', { inputMode: 'numeric', maxLength: 22 })}
          {text('to.owner.personId', { inputMode: 'numeric', maxLength: 11 })}
        </fieldset>
        <fieldset>
          <legend>{t('create.payment')}</legend>
          {text('body.amount', { inputMode: 'decimal', hint: 'create.amountHint' })}
          <SelectField
            id="create-body-currencyId"
            label={t(LABELS['body.currencyId'])}
            value={form['body.currencyId']}
            onChange={(value) => setForm((current) => ({ ...current, 'body.currencyId': value }))}
            error={errorOf('body.currencyId')}
            options={(sending?.options.currencies ?? [form['body.currencyId']]).map((code) => ({
              value: code,
              label: CURRENCY_NAMES[code] ? `${CURRENCY_NAMES[code]} (${code})` : code,
            }))}
          />
          <SelectField
            id="create-body-concept"
            label={t(LABELS['body.concept'])}
            value={form['body.concept']}
            onChange={(value) => setForm((current) => ({ ...current, 'body.concept': value }))}
            error={errorOf('body.concept')}
            options={(sending?.options.concepts ?? [form['body.concept']]).map((concept) => ({
              value: concept,
              label: concept,
            }))}
          />
          {text('body.description')}
          {text('executeOn', { hint: 'create.executeOnHint' })}
          {text('originId', { inputMode: 'numeric', hint: 'create.originIdHint' })}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('create.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
