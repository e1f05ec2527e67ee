import type { CLOSE_ES } from './messages-close-es';

// The daily close's texts in English.

export const CLOSE_EN: Record<keyof typeof CLOSE_ES, string> = {
  'nav.close': 'Day close',
  'close.title': 'Daily close',
  'close.explain':
    'What left each account in a Buenos Aires day: transfers created, sent, completed, failed, rejected and canceled that day, and what was still pending when it ended.',
  'close.date': 'Day of the close',
  'close.show': 'Show',
  'close.none': 'No transfer counts in this day.',
  'close.figure': 'Figure',
  'close.totals': 'Total',
  'close.created': 'Created',
  'close.sent': 'Sent',
  'close.completed': 'Completed',
  'close.failed': 'Failed',
  'close.failedSplit': '{registered} registered, {unregistered} not registered',
  'close.rejected': 'Rejected',
  'close.canceled': 'Canceled',
  'close.pendingAtEnd': 'Pending at the end',
  'close.oldest': 'oldest:',
  'close.awaitingApprovalAtEnd': 'Awaiting approval',
  'close.scheduledAtEnd': 'Scheduled',
  'close.count': 'count: {count}',
  'close.exportCsv': 'Download CSV',
  'close.exportExcelCsv': 'CSV for Excel',
  'close.exportXlsx': 'Download .xlsx',
};
