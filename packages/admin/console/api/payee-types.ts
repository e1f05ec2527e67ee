import type { Who } from './types';

/** A destination account as the payee book knows it (`GET /admin/payees`). */
export interface Payee {
  address: string;
  requestedPersonId: string | null;
  holder: { personId: string | null; name: string | null } | null;
  holderDiffers: boolean;
  previousNames: string[];
  nameChangedAt: string | null;
  label: string | null;
  firstPaidAt: string | null;
  lastPaidAt: string | null;
  completed: { count: number; amount: string };
  approved: { at: string; by: Who | null } | null;
  blocked: { at: string; by: Who | null } | null;
}
