import type { PAYEES_ES } from './messages-payees-es';

// The payee book's texts in English.

export const PAYEES_EN: Record<keyof typeof PAYEES_ES, string> = {
  'nav.payees': 'Payees',
  'payees.title': 'Payees',
  'payees.explain':
    'Every account transfers went to, with the holder as the bank reported them. Blocking an account refuses every transfer to it.',
  'payees.search': 'Search by account, CUIT, name or label',
  'payees.searchButton': 'Search',
  'payees.none': 'No payee matches.',
  'payees.account': 'Account',
  'payees.label': 'Label',
  'payees.holder': 'Holder according to the bank',
  'payees.holderDiffers': 'The bank reported another CUIT than the one asked for ({cuit})',
  'payees.previousNames': 'Before: {names}',
  'payees.paid': 'Paid',
  'payees.paidCount': '{count} transfers',
  'payees.paidCountOne': '1 transfer',
  'payees.lastPaid': 'Last',
  'payees.state': 'State',
  'payees.blocked': 'Blocked',
  'payees.approved': 'Approved',
  'payees.known': 'Paid before',
  'payees.new': 'Never paid',
  'payees.block': 'Block',
  'payees.unblock': 'Unblock',
  'payees.saveLabel': 'Save label',
  'payees.labelFor': 'Label of {address}',
  'payees.saved': 'Saved.',
  'payees.firstPayment': 'First transfer to this account',
};
