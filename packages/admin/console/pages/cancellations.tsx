import { useState } from 'preact/hooks';
import type { Cancellation, Page } from '../api/types';
import { describeError, ErrorNotice, SuccessNotice } from '../components/notices';
import { CancellationReason } from '../components/reasons';
import { DataTable } from '../components/table';
import { Money, Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { can } from '../permissions';
import { href } from '../router';
import { toggled } from '../selection';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 200;

/**
 * The cancellations of FAILED transfers, which the back office registers on its side: each one acknowledged
 * with the registration's own reference, several at once.
 */
export function Cancellations() {
  const i18n = useI18n();
  const { t } = i18n;
  const { api, me } = useSession();
  const [showAll, setShowAll] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [references, setReferences] = useState<Record<number, string>>({});
  const [outcome, setOutcome] = useState<{ done?: number; failures: { originId: number; error: unknown }[] }>({
    failures: [],
  });
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<Cancellation>>('admin/cancellations', {
        limit: PAGE_SIZE,
        ...(showAll ? {} : { acknowledged: 'false' }),
      }),
    [showAll],
  );
  const mayAcknowledge = can(me.role, 'acknowledge');

  const toggle = (originId: number) => setSelected((current) => toggled(current, originId));
  /** The chosen rows without a registration number: registering them so is asked about first. */
  const [confirmingWithout, setConfirmingWithout] = useState<number[]>();
  const withoutReference = () => [...selected].filter((originId) => !references[originId]?.trim());

  const askOrAcknowledge = () => {
    const missing = withoutReference();
    if (missing.length > 0) setConfirmingWithout(missing);
    else void acknowledge();
  };

  const acknowledge = async () => {
    setConfirmingWithout(undefined);
    const failures: { originId: number; error: unknown }[] = [];
    let done = 0;
    // One request per cancellation, each with its own reference; one refusal does not stop the others.
    for (const originId of selected) {
      const reference = references[originId]?.trim();
      try {
        await api.post(`admin/cancellations/${originId}/ack`, reference ? { reference } : {});
        done++;
      } catch (failure) {
        failures.push({ originId, error: failure });
      }
    }
    setSelected(new Set());
    setOutcome({ done, failures });
    reload();
  };

  return (
    <section aria-labelledby="cancellations-title">
      <h1 id="cancellations-title">{t('cancellations.title')}</h1>
      <p>{t('cancellations.explain')}</p>
      <div class="field-inline">
        <input id="show-all" type="checkbox" checked={showAll} onChange={() => setShowAll(!showAll)} />
        <label for="show-all">{t('cancellations.showAll')}</label>
      </div>
      <ErrorNotice error={error} />
      <SuccessNotice
        text={outcome.done === undefined ? undefined : t('cancellations.acknowledged', { count: outcome.done })}
      />
      {outcome.failures.map(({ originId, error: refusal }) => (
        <p key={originId} class="notice notice-error" role="alert">
          #{originId}: {describeError(refusal, i18n)}
        </p>
      ))}
      {data && data.items.length === 0 && <p class="muted">{t('cancellations.none')}</p>}
      {data && data.items.length > 0 && (
        <DataTable
          columns={[
            mayAcknowledge && t('table.select'),
            t('field.originId'),
            t('field.createdAt'),
            { text: t('field.amount'), numeric: true },
            t('field.reason'),
            t('cancellations.reference'),
            t('cancellations.registered'),
          ]}
        >
          {data.items.map((cancellation) => {
            const open = cancellation.acknowledgedAt === null;
            return (
              <tr key={cancellation.originId} data-origin-id={cancellation.originId}>
                {mayAcknowledge && (
                  <td>
                    {open && (
                      <input
                        type="checkbox"
                        id={`ack-${cancellation.originId}`}
                        aria-label={t('cancellations.select', { originId: cancellation.originId })}
                        checked={selected.has(cancellation.originId)}
                        onChange={() => toggle(cancellation.originId)}
                      />
                    )}
                  </td>
                )}
                <td>
                  <a href={href(`transfers/${cancellation.originId}`)}>{cancellation.originId}</a>
                </td>
                <td>
                  <Time at={cancellation.createdAt} />
                </td>
                <td class="num">
                  <Money amount={cancellation.amount} currencyId={cancellation.currencyId} />
                </td>
                <td>
                  <CancellationReason reason={cancellation.reason} />
                </td>
                <td>
                  {open && mayAcknowledge ? (
                    <input
                      type="text"
                      id={`reference-${cancellation.originId}`}
                      aria-label={t('cancellations.referenceFor', { originId: cancellation.originId })}
                      maxLength={100}
                      value={references[cancellation.originId] ?? ''}
                      onInput={(event) => {
                        // Read now: the update below runs at the next render, when the event has no target.
                        const reference = event.currentTarget.value;
                        setReferences((current) => ({ ...current, [cancellation.originId]: reference }));
                        // A number typed is a registration made: its row is chosen (unchosen again when erased).
                        setSelected((current) => {
                          const next = new Set(current);
                          if (reference.trim() === '') next.delete(cancellation.originId);
                          else next.add(cancellation.originId);
                          return next;
                        });
                      }}
                    />
                  ) : (
                    <span translate={false}>{cancellation.reference ?? ''}</span>
                  )}
                </td>
                <td>
                  {open ? (
                    t('cancellations.pending')
                  ) : (
                    <>
                      <Time at={cancellation.acknowledgedAt} />{' '}
                      <span translate={false}>{cancellation.acknowledgedBy?.name ?? ''}</span>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {mayAcknowledge && confirmingWithout === undefined && (
        <div class="actions">
          <button type="button" class="primary" disabled={selected.size === 0} onClick={askOrAcknowledge}>
            {t('cancellations.acknowledge', { count: selected.size })}
          </button>
        </div>
      )}
      {confirmingWithout !== undefined && (
        <fieldset class="confirm">
          <legend>{t('cancellations.confirmWithout', { originIds: confirmingWithout.join(', ') })}</legend>
          <button type="button" class="primary" onClick={acknowledge}>
            {t('cancellations.confirmWithoutYes')}
          </button>
          <button type="button" onClick={() => setConfirmingWithout(undefined)}>
            {t('cancellations.confirmWithoutNo')}
          </button>
        </fieldset>
      )}
    </section>
  );
}
