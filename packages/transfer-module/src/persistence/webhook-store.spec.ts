import { TAKEOVER_AFTER_SILENCE_MS } from './engine/replica-takeover';
import { MovementStore } from './movement-store';
import type { MovementChange, Outbox, OutboxEvent, UnknownDebit } from './outbox';
import { WebhookEndpointNotFoundError } from './persistence.errors';
import { ReplicaRegistry } from './replica-registry';
import { sampleIntent } from './testing/sample-intent';
import { storeFixture, T0 } from './testing/store-fixture';
import { describeEachEngine, type TestEngine } from './testing/test-engines';
import { WebhookStore } from './webhook-store';

// The outbox written with the movements' changes, and the deliveries dispatchers lease and record: on a real
// SQLite file and a real Postgres database.

const LEASE = 30_000;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** An Outbox that renders one event per appended history row, named after its source, and counts commits. */
class RecordingOutbox implements Outbox {
  readonly changes: MovementChange[] = [];
  commits = 0;
  private next = 0;

  render(change: MovementChange): OutboxEvent[] {
    this.changes.push(change);
    return change.appended.map((row) => ({
      id: `msg_${++this.next}`,
      type: row.source === 'intent' ? 'transfer.created' : 'transfer.status_changed',
      originId: row.originId,
      payload: JSON.stringify({ to: row.to, historyLength: change.movement.history.length }),
    }));
  }

  renderDailyClose(): OutboxEvent[] {
    return [];
  }

  renderUnknownDebits(debits: UnknownDebit[]): OutboxEvent[] {
    return debits.map((debit) => ({
      id: `msg_${++this.next}`,
      type: 'statement.unknown_debit',
      originId: null,
      payload: JSON.stringify(debit),
    }));
  }

  committed(): void {
    this.commits += 1;
  }
}

async function webhookFixture(engine: TestEngine) {
  const base = await storeFixture(engine);
  const outbox = new RecordingOutbox();
  const movements = new MovementStore(base.dataSource, base.clock, { outbox });
  const webhooks = new WebhookStore(base.dataSource, base.clock);
  const endpoint = (id: string, eventTypes: string[] = []) =>
    webhooks.createEndpoint({ id, url: `https://${id}.example/hook`, description: null, eventTypes, secret: SECRET });
  const record = (originId: number) => {
    const { intent, fingerprint } = sampleIntent(originId);
    return movements.recordIntent(intent, fingerprint, { sendNow: false });
  };
  return { ...base, outbox, movements, webhooks, endpoint, record };
}

describeEachEngine('the webhook outbox and WebhookStore', (engine) => {
  it('writes a change’s events with it, one delivery per enabled endpoint that wants the type', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.endpoint('ep_changes', ['transfer.status_changed']);
    await fixture.endpoint('ep_off');
    await fixture.webhooks.updateEndpoint('ep_off', { enabled: false });

    await fixture.record(1);
    expect(fixture.outbox.commits).toBe(1);
    expect(await fixture.movements.claim(1, 'w', LEASE)).not.toBeNull();
    fixture.clock.advance(10);
    await fixture.movements.applyUpdate(1, 'w', {
      patch: { status: 'CREATED', lastAnswerAt: new Date(T0 + 10) },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });
    expect(fixture.outbox.commits).toBe(2);
    // The renderer saw the movement after the change with its whole history.
    expect(fixture.outbox.changes[1].movement.status).toBe('CREATED');
    expect(fixture.outbox.changes[1].movement.history.map((row) => row.to)).toEqual(['PENDING', 'CREATED']);

    const all = await fixture.webhooks.listDeliveries({ endpointId: 'ep_all', limit: 10 });
    expect(all.items.map((delivery) => [delivery.eventType, delivery.state, delivery.originId])).toEqual([
      ['transfer.status_changed', 'pending', 1],
      ['transfer.created', 'pending', 1],
    ]);
    const changes = await fixture.webhooks.listDeliveries({ endpointId: 'ep_changes', limit: 10 });
    expect(changes.items.map((delivery) => delivery.eventType)).toEqual(['transfer.status_changed']);
    expect((await fixture.webhooks.listDeliveries({ endpointId: 'ep_off', limit: 10 })).items).toEqual([]);
  });

  it('writes an intent’s events with it once: a replay of its originId writes none', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.endpoint('ep_created', ['transfer.created']);
    const first = await fixture.record(1);
    const replay = await fixture.record(1);
    expect([first.created, replay.created]).toEqual([true, false]);
    expect(fixture.outbox.commits).toBe(1);
    // Rendered from the first history row as it was written.
    const [change] = fixture.outbox.changes;
    const { id: _id, ...written } = first.created ? first.history[0] : { id: 0 };
    const { id: _renderedId, ...rendered } = change.appended[0];
    expect(rendered).toEqual(written);
    expect(rendered).toMatchObject({ from: null, to: 'PENDING', source: 'intent', at: new Date(T0) });
    for (const endpointId of ['ep_all', 'ep_created']) {
      const page = await fixture.webhooks.listDeliveries({ endpointId, limit: 10 });
      expect(page.items.map((delivery) => [delivery.eventType, delivery.originId])).toEqual([['transfer.created', 1]]);
    }
  });

  it('writes nothing for an update that changes no status, nor for one the store refuses', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await fixture.movements.claim(1, 'w', LEASE);
    await fixture.movements.applyUpdate(1, 'w', { patch: { lastError: 'timeout' }, releaseLease: false });
    // FAILED without its cancellation: refused, nothing written, the outbox's rows rolled back with it.
    await expect(
      fixture.movements.applyUpdate(1, 'w', {
        patch: { status: 'FAILED' },
        history: [{ to: 'FAILED', source: 'create' }],
        releaseLease: true,
      }),
    ).rejects.toThrow(/cancellation/);
    const page = await fixture.webhooks.listDeliveries({ limit: 10 });
    expect(page.items.map((delivery) => delivery.eventType)).toEqual(['transfer.created']);
    expect(fixture.outbox.commits).toBe(1);
  });

  it('leases due deliveries in order per transfer, to one claimer at a time, and records results fenced', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await fixture.record(2);
    await fixture.movements.claim(1, 'w', LEASE);
    await fixture.movements.applyUpdate(1, 'w', {
      patch: { status: 'CREATED' },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });

    // Transfer 1's second event waits for its first; transfer 2's first goes beside it.
    const first = await fixture.webhooks.claimDueDeliveries({ owner: 'd1', limit: 10, leaseMs: LEASE });
    expect(first.map((delivery) => [delivery.originId, delivery.eventType])).toEqual([
      [1, 'transfer.created'],
      [2, 'transfer.created'],
    ]);
    expect(first[0]).toMatchObject({ url: 'https://ep_all.example/hook', secrets: [SECRET], attempts: 0 });
    expect(await fixture.webhooks.claimDueDeliveries({ owner: 'd2', limit: 10, leaseMs: LEASE })).toEqual([]);

    const attempt = { atMs: T0, durationMs: 12, statusCode: 200, error: null, response: 'ok' };
    // Another owner's result is dropped (its lease is not theirs).
    expect(
      await fixture.webhooks.recordDeliveryResults('d2', [{ deliveryId: first[0].id, outcome: 'delivered', attempt }]),
    ).toEqual([]);
    expect(
      await fixture.webhooks.recordDeliveryResults('d1', [
        { deliveryId: first[0].id, outcome: 'delivered', attempt },
        {
          deliveryId: first[1].id,
          outcome: 'retry',
          nextAttemptAtMs: T0 + 5_000,
          attempt: { ...attempt, statusCode: 500, error: 'HTTP 500' },
        },
      ]),
    ).toEqual(expect.arrayContaining([first[0].id, first[1].id]));

    const next = await fixture.webhooks.claimDueDeliveries({ owner: 'd2', limit: 10, leaseMs: LEASE });
    expect(next.map((delivery) => [delivery.originId, delivery.eventType])).toEqual([[1, 'transfer.status_changed']]);
    fixture.clock.advance(5_000);
    const retried = await fixture.webhooks.claimDueDeliveries({ owner: 'd2', limit: 10, leaseMs: LEASE });
    expect(retried.map((delivery) => [delivery.id, delivery.attempts])).toEqual([[first[1].id, 1]]);

    expect(await fixture.webhooks.listAttempts(first[1].id)).toEqual([
      expect.objectContaining({ statusCode: 500, error: 'HTTP 500', durationMs: 12 }),
    ]);
    const delivered = await fixture.webhooks.getDelivery(first[0].id);
    expect(delivered).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: new Date(T0 + 12) });
  });

  it('takes over the deliveries of a replica silent for 10 s on Postgres, and drops its late result', async () => {
    const fixture = await webhookFixture(engine);
    const registry = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    const LONG_LEASE = 150_000;
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await registry.beat('replica-a', 5_000);
    await registry.beat('replica-b', 5_000);
    const [held] = await fixture.webhooks.claimDueDeliveries({ owner: 'replica-a', limit: 10, leaseMs: LONG_LEASE });
    expect(held.originId).toBe(1);

    // replica-a stops beating (SIGKILL); replica-b goes on, a beat a second.
    for (let second = 1; second < TAKEOVER_AFTER_SILENCE_MS / 1000; second++) {
      fixture.clock.advance(1000);
      await registry.beat('replica-b', 5_000);
    }
    fixture.clock.advance(999);
    await registry.beat('replica-b', 5_000);
    expect(await fixture.webhooks.claimDueDeliveries({ owner: 'replica-b', limit: 10, leaseMs: LONG_LEASE })).toEqual(
      [],
    );
    fixture.clock.advance(1);
    await registry.beat('replica-b', 5_000);
    const taken = await fixture.webhooks.claimDueDeliveries({ owner: 'replica-b', limit: 10, leaseMs: LONG_LEASE });
    if (engine.kind === 'sqlite') {
      // One process on SQLite: no heartbeats are read, a lease runs to its expiry.
      expect(taken).toEqual([]);
      return;
    }
    expect(taken.map((delivery) => [delivery.id, delivery.eventId])).toEqual([[held.id, held.eventId]]);
    // The silent replica's result comes too late: its lease is no longer its own.
    const attempt = {
      atMs: fixture.clock.now().getTime(),
      durationMs: 5,
      statusCode: 200,
      error: null,
      response: 'ok',
    };
    expect(
      await fixture.webhooks.recordDeliveryResults('replica-a', [
        { deliveryId: held.id, outcome: 'delivered', attempt },
      ]),
    ).toEqual([]);
    expect(
      await fixture.webhooks.recordDeliveryResults('replica-b', [
        { deliveryId: held.id, outcome: 'delivered', attempt },
      ]),
    ).toEqual([held.id]);
  });

  it('never takes over its own lease, however late its own heartbeat', async () => {
    const fixture = await webhookFixture(engine);
    const registry = new ReplicaRegistry(fixture.dataSource, fixture.clock);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await registry.beat('replica-a', 5_000);
    fixture.clock.advance(1000);
    await registry.beat('replica-a', 5_000);
    const [held] = await fixture.webhooks.claimDueDeliveries({ owner: 'replica-a', limit: 10, leaseMs: 150_000 });
    expect(held.originId).toBe(1);
    // Its next beats wait (a busy pool): by its own heartbeat it looks silent, and it claims again meanwhile.
    fixture.clock.advance(TAKEOVER_AFTER_SILENCE_MS + 1000);
    expect(await fixture.webhooks.claimDueDeliveries({ owner: 'replica-a', limit: 10, leaseMs: 150_000 })).toEqual([]);
  });

  it('gives a dead delivery’s transfer its next event, and delivers dead ones again on request', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await fixture.movements.claim(1, 'w', LEASE);
    await fixture.movements.applyUpdate(1, 'w', {
      patch: { status: 'CREATED' },
      history: [{ to: 'CREATED', source: 'create' }],
      releaseLease: true,
    });
    const [created] = await fixture.webhooks.claimDueDeliveries({ owner: 'd', limit: 10, leaseMs: LEASE });
    const attempt = { atMs: T0, durationMs: 1, statusCode: null, error: 'connection refused', response: null };
    await fixture.webhooks.recordDeliveryResults('d', [{ deliveryId: created.id, outcome: 'dead', attempt }]);
    expect(await fixture.webhooks.countDeliveries()).toEqual({
      pending: 1,
      failing: 0,
      dead: 1,
      oldestPendingAt: new Date(T0),
    });
    const [changed] = await fixture.webhooks.claimDueDeliveries({ owner: 'd', limit: 10, leaseMs: LEASE });
    expect(changed.eventType).toBe('transfer.status_changed');

    expect(await fixture.webhooks.redeliverDead('ep_all')).toBe(1);
    expect(await fixture.webhooks.getDelivery(created.id)).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('spreads due deliveries over concurrent claimers, none twice', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    for (let originId = 1; originId <= 40; originId++) await fixture.record(originId);
    const other = await fixture.secondConnection();
    const otherWebhooks = new WebhookStore(other.dataSource, fixture.clock);
    const claims = await Promise.all([
      fixture.webhooks.claimDueDeliveries({ owner: 'a', limit: 25, leaseMs: LEASE }),
      otherWebhooks.claimDueDeliveries({ owner: 'b', limit: 25, leaseMs: LEASE }),
    ]);
    const ids = claims.flat().map((delivery) => delivery.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    // A stopped dispatcher's leases expire; releasing them makes them due at once.
    expect(await fixture.webhooks.releaseDeliveryLeases('a')).toBe(claims[0].length);
  });

  it('adds a test event for one endpoint only, and names an unknown endpoint', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_a', ['transfer.completed']);
    await fixture.endpoint('ep_b');
    const event = { id: 'msg_test', type: 'webhook.test', originId: null, payload: '{"type":"webhook.test"}' };
    const delivery = await fixture.webhooks.addTestEvent('ep_a', event);
    expect(delivery).toMatchObject({ endpointId: 'ep_a', eventId: 'msg_test', state: 'pending', originId: null });
    expect((await fixture.webhooks.listDeliveries({ endpointId: 'ep_b', limit: 10 })).items).toEqual([]);
    await expect(fixture.webhooks.addTestEvent('ep_none', { ...event, id: 'msg_x' })).rejects.toBeInstanceOf(
      WebhookEndpointNotFoundError,
    );
  });

  it('keeps the previous secret signing until its grace period ends', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    const rotated = await fixture.webhooks.rotateEndpointSecret('ep_all', `${SECRET}x`, new Date(T0 + 1_000));
    expect(rotated).toMatchObject({ secret: `${SECRET}x`, previousSecret: SECRET });
    const [during] = await fixture.webhooks.claimDueDeliveries({ owner: 'd', limit: 1, leaseMs: 10 });
    expect(during.secrets).toEqual([`${SECRET}x`, SECRET]);
    fixture.clock.advance(1_000);
    const [after] = await fixture.webhooks.claimDueDeliveries({ owner: 'd', limit: 1, leaseMs: 10 });
    expect(after.secrets).toEqual([`${SECRET}x`]);
  });

  it('prunes events past their retention only once no delivery of theirs is pending', async () => {
    const fixture = await webhookFixture(engine);
    await fixture.endpoint('ep_all');
    await fixture.record(1);
    await fixture.record(2);
    const claimed = await fixture.webhooks.claimDueDeliveries({ owner: 'd', limit: 10, leaseMs: LEASE });
    const attempt = { atMs: T0, durationMs: 1, statusCode: 200, error: null, response: null };
    await fixture.webhooks.recordDeliveryResults('d', [{ deliveryId: claimed[0].id, outcome: 'delivered', attempt }]);
    fixture.clock.advance(10_000);
    // Written before the cutoff: the delivered one goes (with its attempts), the pending one stays.
    expect(await fixture.webhooks.pruneEvents(T0 + 1, 1000)).toBe(1);
    const left = await fixture.webhooks.listDeliveries({ limit: 10 });
    expect(left.items.map((delivery) => delivery.id)).toEqual([claimed[1].id]);
    await expect(fixture.webhooks.listAttempts(claimed[0].id)).rejects.toThrow(/no webhook delivery/);
    // Nothing written after the cutoff is touched.
    expect(await fixture.webhooks.pruneEvents(T0, 1000)).toBe(0);
  });
});
