import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { AuditRow, Page } from '../api/types';
import { SelectField, TextField } from '../components/fields';
import { ErrorNotice } from '../components/notices';
import { Pager } from '../components/pager';
import { DataTable } from '../components/table';
import { Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { ES, type MessageKey } from '../i18n/messages-es';
import { roleName, statusMeaning } from '../i18n/refusals';
import { fieldErrorText } from '../i18n/violations';
import { href, navigate } from '../router';
import { useSession } from '../session';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;
const FILTERS = ['actor', 'action', 'originId', 'outcome'] as const;
type AuditFilters = Record<(typeof FILTERS)[number], string>;

const filtersOf = (query: URLSearchParams): AuditFilters =>
  Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as AuditFilters;

/** The audit trail, newest first: who changed what, or tried to. */
export function Audit({ query }: { query: URLSearchParams }) {
  const { t, lang } = useI18n();
  const { api } = useSession();
  const applied = filtersOf(query);
  const after = query.get('after') ?? undefined;
  const [draft, setDraft] = useState(applied);
  const { data, error } = useLoad(
    () => api.get<Page<AuditRow>>('admin/audit', { ...applied, after, limit: PAGE_SIZE }),
    [query.toString()],
  );
  const violations = error instanceof ApiError ? error.violations : [];
  const fieldError = (name: string) => fieldErrorText(error, name, lang);

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form
        class="filters"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          navigate('audit', draft);
        }}
      >
        <TextField
          id="audit-actor"
          label={t('audit.actor')}
          value={draft.actor}
          onInput={(actor) => setDraft((current) => ({ ...current, actor }))}
          error={fieldError('actor')}
        />
        <SelectField
          id="audit-action"
          label={t('audit.action')}
          value={draft.action}
          onChange={(action) => setDraft((current) => ({ ...current, action }))}
          error={fieldError('action')}
          options={[
            { value: '', label: t('audit.anyAction') },
            ...AUDIT_ACTIONS.map((action) => ({ value: action, label: t(`audit.action.${action}`) })),
          ]}
        />
        <TextField
          id="audit-originId"
          label={t('field.originId')}
          value={draft.originId}
          inputMode="numeric"
          onInput={(originId) => setDraft((current) => ({ ...current, originId }))}
          error={fieldError('originId')}
        />
        <SelectField
          id="audit-outcome"
          label={t('audit.outcome')}
          value={draft.outcome}
          onChange={(outcome) => setDraft((current) => ({ ...current, outcome }))}
          error={fieldError('outcome')}
          options={[
            { value: '', label: t('audit.anyOutcome') },
            { value: 'ok', label: t('audit.outcome.ok') },
            { value: 'refused', label: t('audit.outcome.refused') },
          ]}
        />
        <div class="actions">
          <button type="submit" class="primary">
            {t('transfers.searchButton')}
          </button>
        </div>
      </form>
      {violations.length === 0 && <ErrorNotice error={error} />}
      {data && (
        <>
          <DataTable
            columns={[
              '#',
              t('audit.at'),
              t('audit.actor'),
              t('audit.action'),
              t('field.originId'),
              t('audit.outcome'),
              t('audit.request'),
            ]}
          >
            {data.items.map((row) => (
              <tr key={row.seq}>
                <td class="num">{row.seq}</td>
                <td>
                  <Time at={row.at} />
                </td>
                <td>
                  {row.actor ? (
                    <>
                      <span translate={false}>{row.actor.name}</span> ({roleName(row.actor.role, lang)})
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  <AuditAction action={row.action} />
                </td>
                {/* A refused request may name a transfer that was never made: only a done one links to it. */}
                <td>
                  {row.originId === null ? (
                    '—'
                  ) : row.outcome === 'ok' ? (
                    <a href={href(`transfers/${row.originId}`)}>{row.originId}</a>
                  ) : (
                    row.originId
                  )}
                </td>
                {/* A refusal's row keeps its HTTP status and giro's English for logs: said here by the status. */}
                <td title={row.error ?? undefined}>
                  {t(`audit.outcome.${row.outcome}`)}
                  {row.outcome === 'refused' &&
                    row.statusCode !== null &&
                    ` (${row.statusCode}): ${statusMeaning(row.statusCode, lang)}`}
                </td>
                <td class="mono muted" translate={false}>
                  {row.requestId ?? ''} {row.clientAddress ?? ''}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="audit" query={applied} after={after} nextCursor={data.nextCursor} />
        </>
      )}
    </section>
  );
}

/** The actions the API records (its `@Audited` names), each said in words on this page. */
const AUDIT_ACTIONS = [
  'transfer.create',
  'transfer.batch',
  'transfer.refresh',
  'transfer.approve',
  'transfer.approve_many',
  'transfer.reject',
  'transfer.reject_many',
  'cancellation.ack',
  'anomaly.resolve',
  'bank.lookup',
  'sweep.run',
  'key.create',
  'key.revoke',
  'sub_account.register',
  'sub_account.disable',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.test',
  'webhook.rotate_secret',
  'webhook.redeliver',
  'webhook.redeliver_dead',
] as const;

/**
 * An action said in words (`key.create`: "Crear una clave"); a refused read by its request (`GET /admin/transfers`:
 * "Consulta"), and one the console does not know yet, by its code.
 */
function AuditAction({ action }: { action: string }) {
  const { t } = useI18n();
  const key = `audit.action.${action}` as MessageKey;
  if (key in ES) return <span>{t(key)}</span>;
  return (
    <span>
      {t(action.startsWith('GET ') ? 'audit.action.read' : 'audit.action.other')}{' '}
      <small class="mono muted" translate={false}>
        {action}
      </small>
    </span>
  );
}
