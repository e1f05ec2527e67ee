export { SweepService } from './sweep.service';
export type { SweepReport } from './sweep-report';
