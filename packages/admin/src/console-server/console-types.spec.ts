import { FINAL_STATUSES, MOVEMENT_STATUSES, ROLES, WEBHOOK_EVENT_TYPES } from '@giro/transfer-module';
import { WEBHOOK_DELIVERY_STATES } from '@giro/transfer-module/persistence';
import {
  DELIVERY_STATES as CONSOLE_DELIVERY_STATES,
  ROLES as CONSOLE_ROLES,
  STATUSES as CONSOLE_STATUSES,
  isFinal,
  SUBSCRIBABLE_EVENT_TYPES,
} from '../../console/api/types';

// The console's bundle cannot import the server's code, so its api/types.ts repeats the lists it shows and
// offers; these keep each copy equal to the server's.

describe("the console's copies of the server's lists", () => {
  it('knows every status of a movement, in the order of their life, and which are final', () => {
    expect(CONSOLE_STATUSES).toEqual(MOVEMENT_STATUSES);
    expect(CONSOLE_STATUSES.filter(isFinal)).toEqual([...FINAL_STATUSES]);
  });

  it('offers every role a key may have', () => {
    expect(CONSOLE_ROLES).toEqual(ROLES);
  });

  it('offers every event type an endpoint may subscribe to, in the server’s order', () => {
    expect(SUBSCRIBABLE_EVENT_TYPES).toEqual(WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test'));
  });

  it('knows every state of a webhook delivery', () => {
    expect(CONSOLE_DELIVERY_STATES).toEqual(WEBHOOK_DELIVERY_STATES);
  });
});
