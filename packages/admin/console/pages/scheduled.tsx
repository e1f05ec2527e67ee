import { useState } from 'preact/hooks';
import { totalsByCurrency } from '../amounts';
import { ApiError } from '../api/client';
import { type RefusedItem, withCurrentStatus } from '../api/refused-items';
import type { CancelItem, Movement, Page, ScheduledTotals } from '../api/types';
import { ConfirmDialog } from '../components/confirm-dialog';
import { TextField } from '../components/fields';
import { ErrorNotice, SuccessNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { ScheduleText } from '../components/schedule-text';
import { SourceAccountFilter } from '../components/source-account-filter';
import { DataTable } from '../components/table';
import { TransferTabs } from '../components/transfer-tabs';
import { Money, PartyText } from '../components/values';
import { toApiDay, typedDay } from '../days';
import { formatTotals } from '../format';
import { useI18n } from '../i18n/i18n';
import { refusalText } from '../i18n/refusals';
import { fieldErrorText } from '../i18n/violations';
import { can } from '../permissions';
import { href, navigate } from '../router';
import { toggled } from '../selection';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;

/**
 * The transfers waiting for their moment (`GET /admin/transfers?status=SCHEDULED&sort=executeAt`), earliest first,
 * by sending day and source account (the filters are in the address); the totals per day and account of every
 * transfer the filter takes, not only the page's (`GET /admin/transfers/scheduled-totals`); and,
 * for an operator, canceling the ones ticked (`POST /admin/transfers/cancel`) once a dialog naming their count and
 * total was answered yes.
 */
export function Scheduled({ query }: { query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const { api, me } = useSession();
  const day = query.get('day') ?? '';
  const from = query.get('from') ?? '';
  const after = query.get('after') ?? undefined;
  const [draft, setDraft] = useState({ day: typedDay(day), from });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{
    canceled?: number;
    refused: RefusedItem<CancelItem>[];
    error?: unknown;
  }>({ refused: [] });
  const { data, error, reload } = useLoad(
    () =>
      api.get<Page<Movement>>('admin/transfers', {
        status: 'SCHEDULED',
        sort: 'executeAt',
        limit: PAGE_SIZE,
        executeFrom: day,
        executeTo: day,
        from,
        after,
      }),
    [query.toString()],
  );
  const totals = useLoad(
    () => api.get<ScheduledTotals>('admin/transfers/scheduled-totals', { executeFrom: day, executeTo: day, from }),
    [day, from],
  );
  const mayCancel = can(me.role, 'cancelScheduled');
  const items = data?.items ?? [];
  const chosen = items.filter((movement) => selected.has(movement.originId));
  const chosenTotal = formatTotals(totalsByCurrency(chosen), lang);
  const filterError = (name: string) => fieldErrorText(error, name, lang);
  const refusedFilter = error instanceof ApiError && error.violations.length > 0;

  const submit = (event: Event) => {
    event.preventDefault();
    navigate('scheduled', { day: toApiDay(draft.day), from: draft.from });
  };

  const cancel = async () => {
    setConfirming(false);
    try {
      const { items: answers } = await api.post<{ items: CancelItem[] }>('admin/transfers/cancel', {
        originIds: chosen.map((movement) => movement.originId),
      });
      // A refusal names the status the transfer is in now (released or canceled meanwhile).
      const refused = await withCurrentStatus(api, answers);
      setOutcome({ canceled: answers.length - refused.length, refused });
      setSelected(new Set());
      void reload();
      void totals.reload();
    } catch (failure) {
      setOutcome({ refused: [], error: failure });
    }
  };

  return (
    <section aria-labelledby="scheduled-title">
      <h1 id="scheduled-title">{t('scheduled.title')}</h1>
      <TransferTabs current="scheduled" />
      <p>{t('scheduled.explain')}</p>
      <form class="filters" onSubmit={submit} noValidate>
        <TextField
          id="scheduled-day"
          label={t('scheduled.day')}
          hint={t('filter.dayHint')}
          value={draft.day}
          onInput={(value) => setDraft((current) => ({ ...current, day: value }))}
          error={filterError('executeFrom') ?? filterError('executeTo')}
        />
        <SourceAccountFilter
          id="scheduled-from"
          value={draft.from}
          onChange={(value) => setDraft((current) => ({ ...current, from: value }))}
          error={filterError('from')}
        />
        <div class="actions">
          <button type="submit" class="primary">
            {t('scheduled.filter')}
          </button>
          <a class="button" href={href('scheduled')} onClick={() => setDraft({ day: '', from: '' })}>
            {t('scheduled.clear')}
          </a>
        </div>
      </form>
      <ErrorNotice error={refusedFilter ? undefined : error} />
      <ErrorNotice error={outcome.error} />
      <SuccessNotice
        text={outcome.canceled !== undefined ? t('scheduled.canceled', { count: outcome.canceled }) : undefined}
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
      {data && items.length === 0 && <p class="muted">{t('scheduled.none')}</p>}
      {items.length > 0 && (
        <>
          <ScheduledTable
            items={items}
            showSource={from === ''}
            selected={mayCancel ? selected : undefined}
            onToggle={(originId) => setSelected((current) => toggled(current, originId))}
            onToggleAll={() =>
              setSelected((current) =>
                current.size === items.length ? new Set() : new Set(items.map((movement) => movement.originId)),
              )
            }
          />
          <Pager path="scheduled" query={{ day, from }} after={after} nextCursor={data?.nextCursor ?? null} />
          {mayCancel && (
            <div class="actions">
              <button type="button" class="danger" disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
                {chosen.length === 0
                  ? t('scheduled.cancelNone')
                  : t(chosen.length === 1 ? 'scheduled.cancelOne' : 'scheduled.cancelMany', {
                      count: chosen.length,
                      total: chosenTotal,
                    })}
              </button>
            </div>
          )}
        </>
      )}
      <ErrorNotice error={refusedFilter ? undefined : totals.error} />
      {totals.data && totals.data.items.length > 0 && <DayTotals totals={totals.data} />}
      {confirming && (
        <ConfirmDialog
          title={t('scheduled.confirmTitle')}
          confirmLabel={t('scheduled.confirm')}
          cancelLabel={t('scheduled.keep')}
          onConfirm={cancel}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <strong>
              {t(chosen.length === 1 ? 'scheduled.cancelOne' : 'scheduled.cancelMany', {
                count: chosen.length,
                total: chosenTotal,
              })}
            </strong>
          </p>
          <p>{t('scheduled.confirmText')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function ScheduledTable({
  items,
  showSource,
  selected,
  onToggle,
  onToggleAll,
}: {
  items: Movement[];
  showSource: boolean;
  /** Undefined: the role may not cancel, so nothing is ticked. */
  selected: Set<number> | undefined;
  onToggle(originId: number): void;
  onToggleAll(): void;
}) {
  const { t } = useI18n();
  return (
    <DataTable
      class="scheduled-rows"
      columns={[
        selected !== undefined && t('table.select'),
        t('field.originId'),
        t('scheduled.executeAt'),
        { text: t('field.amount'), numeric: true },
        showSource && t('field.from'),
        t('field.to'),
        t('field.description'),
      ]}
    >
      {selected !== undefined && items.length > 1 && (
        <tr class="select-all">
          <td colSpan={showSource ? 7 : 6}>
            <label>
              <input type="checkbox" checked={selected.size === items.length} onChange={onToggleAll} />{' '}
              {t('scheduled.selectAll')}
            </label>
          </td>
        </tr>
      )}
      {items.map((movement) => (
        <tr key={movement.originId} data-origin-id={movement.originId}>
          {selected !== undefined && (
            <td>
              <input
                type="checkbox"
                aria-label={t('scheduled.select', { originId: movement.originId })}
                checked={selected.has(movement.originId)}
                onChange={() => onToggle(movement.originId)}
              />
            </td>
          )}
          <td>
            <a href={href(`transfers/${movement.originId}`)}>{movement.originId}</a>
          </td>
          <td>{movement.schedule && <ScheduleText schedule={movement.schedule} />}</td>
          <td class="num">
            <Money amount={movement.amount} currencyId={movement.currencyId} />
          </td>
          {showSource && (
            <td>
              <PartyText party={movement.from} />
            </td>
          )}
          <td>
            <PartyText party={movement.to} />
          </td>
          <td class="description" translate={false}>
            {movement.description}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The filter's scheduled transfers per sending day and source account: how many, and how much (per currency). */
function DayTotals({ totals }: { totals: ScheduledTotals }) {
  const { t, lang } = useI18n();
  const groups = new Map<string, { day: string; from: string; totals: ScheduledTotals['items'] }>();
  for (const total of totals.items) {
    const key = `${total.day}:${total.from}`;
    const group = groups.get(key) ?? { day: total.day, from: total.from, totals: [] };
    group.totals.push(total);
    groups.set(key, group);
  }
  return (
    <>
      <h2>{t('scheduled.totals')}</h2>
      <DataTable
        class="scheduled-totals"
        columns={[
          t('scheduled.day'),
          t('scheduled.account'),
          { text: t('batch.totalCount'), numeric: true },
          { text: t('batch.totalAmount'), numeric: true },
        ]}
      >
        {[...groups.values()].map((group) => (
          <tr key={`${group.day}:${group.from}`} data-day={group.day} data-source={group.from}>
            <td class="nowrap">{typedDay(group.day)}</td>
            <td>
              <span class="mono account">{group.from}</span>
            </td>
            <td class="num">{group.totals.reduce((sum, total) => sum + total.count, 0)}</td>
            <td class="num">{formatTotals(group.totals, lang)}</td>
          </tr>
        ))}
      </DataTable>
      {totals.truncated && <p class="muted">{t('scheduled.totalsTruncated')}</p>}
    </>
  );
}
