import { useI18n } from '../i18n/i18n';
import { roleName } from '../i18n/refusals';
import { type Action, can, roleNeeded } from '../permissions';
import { useRoute } from '../router';
import { useSession } from '../session';
import { Anomalies } from './anomalies';
import { Approvals } from './approvals';
import { Audit } from './audit';
import { Batch } from './batch';
import { Cancellations } from './cancellations';
import { CreateTransfer } from './create-transfer';
import { DailyClose } from './daily-close';
import { Dashboard } from './dashboard';
import { Keys } from './keys';
import { Payees } from './payees';
import { Scheduled } from './scheduled';
import { TransferDetail } from './transfer-detail';
import { Transfers } from './transfers';
import { Webhooks } from './webhooks';

/** The page the hash names (`#/transfers/1001`); a page the role may not use says so. */
export function CurrentPage() {
  const { t, lang } = useI18n();
  const { me } = useSession();
  const { path, query } = useRoute();
  const [page, id] = path;
  const only = (action: Action, render: () => preact.JSX.Element) =>
    can(me.role, action) ? (
      render()
    ) : (
      <p class="notice notice-error">
        {t('error.notAllowed', { needed: roleName(roleNeeded(action), lang), role: roleName(me.role, lang) })}
      </p>
    );

  switch (page) {
    case undefined:
      return <Dashboard />;
    case 'transfers':
      if (id === undefined) return <Transfers key={query.toString()} query={query} />;
      return /^\d+$/.test(id) ? <TransferDetail key={id} originId={Number(id)} /> : <NotFound />;
    case 'scheduled':
      return <Scheduled key={query.toString()} query={query} />;
    case 'new':
      return only('create', () => <CreateTransfer />);
    case 'batch':
      return only('batch', () => <Batch />);
    case 'cancellations':
      return <Cancellations />;
    case 'anomalies':
      return <Anomalies key={query.toString()} query={query} />;
    case 'approvals':
      return <Approvals />;
    case 'payees':
      return <Payees key={query.toString()} query={query} />;
    case 'close':
      return <DailyClose key={query.toString()} query={query} />;
    case 'webhooks':
      return <Webhooks />;
    case 'audit':
      return <Audit key={query.toString()} query={query} />;
    case 'keys':
      return only('keys', () => <Keys />);
    default:
      return <NotFound />;
  }
}

function NotFound() {
  const { t } = useI18n();
  return <p class="notice notice-error">{t('error.noPage')}</p>;
}
