import { useState } from 'preact/hooks';
import type { Anomaly, UnknownDebit } from '../api/types';
import { useI18n } from '../i18n/i18n';
import { fieldErrorText } from '../i18n/violations';
import { can } from '../permissions';
import { useSession } from '../session';
import { TextField } from './fields';
import { ErrorNotice } from './notices';

/**
 * An open anomaly closed with a note (operator): on a transfer's page and on the anomalies page, where a debit of a
 * statement no transfer explains is closed the same way (its ids are its own).
 */
export function ResolveAnomaly({
  anomaly,
  onResolved,
}: {
  anomaly: Pick<Anomaly, 'id' | 'kind'> | UnknownDebit;
  onResolved(): void;
}) {
  const { t, lang } = useI18n();
  const { api, me } = useSession();
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>();
  const isUnknownDebit = anomaly.kind === 'unknown_debit';
  if (!can(me.role, 'resolve')) return <p class="muted">{t('anomaly.open')}</p>;
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await api.post(`admin/anomalies/${isUnknownDebit ? 'unknown-debits/' : ''}${anomaly.id}/resolve`, { note });
      onResolved();
    } catch (failure) {
      setError(failure);
    }
  };
  const violation = fieldErrorText(error, 'note', lang);
  return (
    <form onSubmit={submit} class="inline-form" noValidate>
      <TextField
        id={`${isUnknownDebit ? 'unknown-debit' : 'anomaly'}-note-${anomaly.id}`}
        label={t('anomaly.note')}
        value={note}
        onInput={setNote}
        maxLength={500}
        error={violation}
      />
      <button type="submit">{t('anomaly.resolve')}</button>
      {!violation && <ErrorNotice error={error} />}
    </form>
  );
}
