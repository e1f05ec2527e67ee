/** A count of transfers and the sum of their amounts (a decimal string). */
export interface CloseTally {
  count: number;
  amount: string;
}

/** A day's close of one source account, or of all (`GET /admin/reports/daily`). */
export interface CloseFigures {
  created: CloseTally;
  sent: CloseTally;
  completed: CloseTally;
  failed: CloseTally & { registered: CloseTally; unregistered: CloseTally };
  rejected: CloseTally;
  canceled: CloseTally;
  pendingAtEnd: CloseTally & { oldestCreatedAt: string | null };
  awaitingApprovalAtEnd: CloseTally;
  scheduledAtEnd: CloseTally;
}

export interface DailyClose {
  day: string;
  startsAt: string;
  endsAt: string;
  account: string | null;
  accounts: (CloseFigures & { account: string })[];
  totals: CloseFigures;
}
