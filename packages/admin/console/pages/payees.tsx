import { useState } from 'preact/hooks';
import type { Payee } from '../api/payee-types';
import type { Page } from '../api/types';
import { TextField } from '../components/fields';
import { describeError, ErrorNotice, SuccessNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { DataTable } from '../components/table';
import { Money, Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { can } from '../permissions';
import { navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;

/**
 * The payee book ("Destinatarios"): every account transfers went to, the holder as the bank reported them, searched
 * by account, CUIT, name or label (`?q=`); an operator labels one, an approver blocks or unblocks it.
 */
export function Payees({ query }: { query: URLSearchParams }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { api, me } = useSession();
  const q = query.get('q') ?? '';
  const after = query.get('after') ?? undefined;
  const [search, setSearch] = useState(q);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ saved?: boolean; error?: unknown }>({});
  const { data, error, reload } = useLoad(
    () => api.get<Page<Payee>>('admin/payees', { q: q === '' ? undefined : q, after, limit: PAGE_SIZE }),
    [query.toString()],
  );
  const mayLabel = can(me.role, 'label');
  const mayBlock = can(me.role, 'block');

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setOutcome({ saved: true });
    } catch (failure) {
      setOutcome({ error: failure });
    }
    reload();
  };
  const saveLabel = (payee: Payee) =>
    act(() => {
      const label = (labels[payee.address] ?? payee.label ?? '').trim();
      return api.post('admin/payees', { address: payee.address, ...(label !== '' && { label }) });
    });
  const setBlocked = (payee: Payee, blocked: boolean) =>
    act(() => api.post(`admin/payees/${payee.address}/${blocked ? 'block' : 'unblock'}`, {}));

  return (
    <section aria-labelledby="payees-title">
      <h1 id="payees-title">{t('payees.title')}</h1>
      <p>{t('payees.explain')}</p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          navigate('payees', { q: search.trim() === '' ? undefined : search.trim() });
        }}
      >
        <TextField id="payees-q" label={t('payees.search')} value={search} onInput={setSearch} maxLength={100} />
        <div class="actions">
          <button type="submit" class="primary">
            {t('payees.searchButton')}
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <SuccessNotice text={outcome.saved ? t('payees.saved') : undefined} />
      {outcome.error !== undefined && (
        <p class="notice notice-error" role="alert">
          {describeError(outcome.error, i18n)}
        </p>
      )}
      {data && data.items.length === 0 && <p class="muted">{t('payees.none')}</p>}
      {data && data.items.length > 0 && (
        <>
          <DataTable
            class="payees-table"
            columns={[
              t('payees.account'),
              t('payees.label'),
              t('payees.holder'),
              { text: t('payees.paid'), numeric: true },
              t('payees.lastPaid'),
              t('payees.state'),
            ]}
          >
            {data.items.map((payee) => (
              <tr key={payee.address} data-payee={payee.address}>
                <td>
                  <span class="mono account">{payee.address}</span>
                </td>
                <td>
                  {mayLabel ? (
                    <>
                      <input
                        type="text"
                        id={`label-${payee.address}`}
                        aria-label={t('payees.labelFor', { address: payee.address })}
                        maxLength={100}
                        value={labels[payee.address] ?? payee.label ?? ''}
                        onInput={(event) => {
                          const label = event.currentTarget.value;
                          setLabels((current) => ({ ...current, [payee.address]: label }));
                        }}
                      />{' '}
                      <button type="button" onClick={() => saveLabel(payee)}>
                        {t('payees.saveLabel')}
                      </button>
                    </>
                  ) : (
                    (payee.label ?? '')
                  )}
                </td>
                <td>
                  {payee.holder ? `${payee.holder.name ?? ''} (${payee.holder.personId ?? '—'})` : '—'}
                  {payee.holderDiffers && (
                    <small class="notice-error" data-testid="holder-differs">
                      {' '}
                      {t('payees.holderDiffers', { cuit: payee.requestedPersonId ?? '' })}
                    </small>
                  )}
                  {payee.previousNames.length > 0 && (
                    <small class="muted"> {t('payees.previousNames', { names: payee.previousNames.join(', ') })}</small>
                  )}
                </td>
                <td class="num">
                  <span class="stacked">
                    <Money amount={payee.completed.amount} currencyId="032" />
                    <small class="muted">
                      {t(payee.completed.count === 1 ? 'payees.paidCountOne' : 'payees.paidCount', {
                        count: payee.completed.count,
                      })}
                    </small>
                  </span>
                </td>
                <td>
                  <Time at={payee.lastPaidAt} />
                </td>
                <td>
                  {t(stateOf(payee))}
                  {mayBlock && (
                    <>
                      {' '}
                      <button
                        type="button"
                        class={payee.blocked ? undefined : 'danger'}
                        onClick={() => setBlocked(payee, payee.blocked === null)}
                      >
                        {payee.blocked ? t('payees.unblock') : t('payees.block')}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="payees" query={{ q: q === '' ? undefined : q }} after={after} nextCursor={data.nextCursor} />
        </>
      )}
    </section>
  );
}

function stateOf(payee: Payee): 'payees.blocked' | 'payees.approved' | 'payees.known' | 'payees.new' {
  if (payee.blocked) return 'payees.blocked';
  if (payee.approved) return 'payees.approved';
  return payee.completed.count > 0 ? 'payees.known' : 'payees.new';
}
