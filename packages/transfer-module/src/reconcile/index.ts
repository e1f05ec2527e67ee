export { BankCallBudget, type BankCallBudgetOptions, type BankCallPriority } from './bank-call-budget';
export { ReconcileService } from './reconcile.service';
export type { SweepReport } from './sweep-report';
