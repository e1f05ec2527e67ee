import { GiroError } from '@giro/transfer-module';

/**
 * A sweep runner refuses to start a sweep now (an application shutting down, say): `POST /admin/reconcile`
 * answers 503 with the error's message. Throw it, or a subclass, from `runSweep`.
 */
export class SweepUnavailableError extends GiroError {
  constructor(message = 'no sweep can start now') {
    super('SWEEP_UNAVAILABLE', message);
  }
}
