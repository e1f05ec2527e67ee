import type { SCHEDULED_ES } from './messages-scheduled-es';

// The texts of scheduled transfers in English.

export const SCHEDULED_EN: Record<keyof typeof SCHEDULED_ES, string> = {
  'tabs.label': 'Views of the transfers',
  'tabs.all': 'All',
  'nav.scheduled': 'Scheduled',
  'scheduled.title': 'Scheduled transfers',
  'scheduled.explain':
    'They go to the bank at their moment, never before. Until then an operator may cancel them: they end canceled and are never sent.',
  'scheduled.day': 'Sending day',
  'scheduled.account': 'Source account',
  'scheduled.filter': 'Filter',
  'scheduled.clear': 'Show all',
  'scheduled.none': 'No scheduled transfer matches.',
  'scheduled.executeAt': 'Sent at',
  'scheduled.requested': 'Asked for',
  'scheduled.select': 'Select transfer {originId}',
  'scheduled.selectAll': 'Select every one listed',
  'scheduled.cancelOne': 'Cancel {count} transfer for {total}',
  'scheduled.cancelMany': 'Cancel {count} transfers for {total}',
  'scheduled.cancelNone': 'Select the transfers to cancel',
  'scheduled.confirmTitle': 'Cancel these transfers?',
  'scheduled.confirmText': "They will never be sent; their account's limit share is free again. This cannot be undone.",
  'scheduled.confirm': 'Yes, cancel',
  'scheduled.keep': 'No, keep them',
  'scheduled.canceled': 'Canceled: {count}.',
  'scheduled.totals': 'Totals per day and account (every transfer the filter takes, not only this page)',
  'scheduled.totalsTruncated':
    'There are more days and accounts: the first ones are shown. Filter by day or account to see the rest.',

  'scheduled.movedFrom': 'asked for {day}, not a business day',
  'scheduled.askedAt': 'asked for {moment}',

  'source.release': 'released at its moment: on to the bank',
  'source.cancel': 'canceled before it was sent',

  'dashboard.scheduled': 'Scheduled',
  'dashboard.scheduledToday': 'Today',
  'dashboard.scheduledTomorrow': 'Tomorrow',
  'dashboard.scheduledNone': 'nothing scheduled',
  'dashboard.scheduledFigure': '{amount} in {count} transfers',
  'dashboard.scheduledFigureOne': '{amount} in 1 transfer',

  'create.executeOn': 'Sending day (optional)',
  'create.executeOnHint': 'dd/mm/yyyy. Empty: sent now. A holiday or a weekend is moved by the configured rule.',

  'detail.schedule': 'Schedule',
  'detail.executeAt': 'Sending moment',
  'detail.requested': 'Asked for',
  'detail.requestedDay': 'the day {day}',
  'detail.requestedMoment': 'at {moment}',
  'detail.cancelScheduled': 'Cancel this transfer',
  'detail.cancelConfirm': 'Cancel transfer {originId} for {total}? It will never be sent.',
  'detail.canceled': 'Canceled: it is not sent.',

  'batch.day': 'Sending',
  'batch.now': 'on confirming',
  'batch.blocked': 'blocked account',
  'batchOutcome.blocked': 'refused: the destination account is blocked',

  'approvals.approveOne': 'Approve {count} transfer for {total}',
  'approvals.approveMany': 'Approve {count} transfers for {total}',
  'approvals.rejectOne': 'Reject {count} transfer for {total}',
  'approvals.rejectMany': 'Reject {count} transfers for {total}',
  'approvals.chooseSome': 'Select transfers to decide on several at once.',
  'approvals.selectedTitle': 'What you are deciding',
  'approvals.selectedTotal': 'Total selected',
  'approvals.selectedCount': '{count} transfers',
  'approvals.selectedCountOne': '1 transfer',
  'approvals.actions': 'Decide',
  'approvals.approveRow': 'Approve',
  'approvals.rejectRow': 'Reject',
  'approvals.approveRowLabel': 'Approve transfer {originId}',
  'approvals.rejectRowLabel': 'Reject transfer {originId}',
  'approvals.reasonFirst': 'To reject, write the reason first.',
};
