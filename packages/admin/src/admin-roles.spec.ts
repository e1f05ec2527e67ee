import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Actor,
  AnomalyService,
  ApiKeyService,
  ApprovalService,
  type AuditRequest,
  AuditService,
  BankLookupService,
  CancellationService,
  dataSourceOptionsFromUrl,
  MovementService,
  ROLES,
  type Role,
  roleAllows,
  runTransferMigrations,
  ScheduledTransferService,
  SubAccountService,
  SweepService,
  TransferOverviewService,
  TransferService,
  WebhookService,
} from '@giro/transfer-module';
import {
  type CallHandler,
  type ExecutionContext,
  Global,
  type INestApplication,
  Module,
  type NestInterceptor,
} from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { APP_INTERCEPTOR, DiscoveryModule, DiscoveryService, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { actorOf } from './shared/http/admin-actor';
import { setupAdminOpenApi } from './shared/http/admin-openapi';
import { REQUIRED_ROLE } from './shared/http/admin-role.decorator';
import { TransferAdminModule } from './transfer-admin.module';

// Every admin route declares the role it needs, and the role guard holds it: the whole role × route matrix over
// HTTP, with real API keys (ApiKeyService on an SQLite file) and the transfer services stubbed (what they answer
// does not matter here, only whether the guard let the request through). The routes against giro itself:
// test/admin-api-keys.e2e-spec.ts.

/** The role each admin route needs: the table the product decided (docs in the package README). */
const ROUTE_ROLES: [method: string, path: string, role: Role][] = [
  ['GET', '/admin/me', 'viewer'],
  ['GET', '/admin/overview', 'viewer'],
  ['GET', '/admin/transfer-options', 'viewer'],
  ['POST', '/admin/transfers', 'operator'],
  ['POST', '/admin/transfers/batch', 'operator'],
  ['GET', '/admin/transfers', 'viewer'],
  ['GET', '/admin/transfers/export.csv', 'viewer'],
  ['GET', '/admin/transfers/export.xlsx', 'viewer'],
  ['GET', '/admin/transfers/{originId}', 'viewer'],
  ['POST', '/admin/transfers/{originId}/refresh', 'operator'],
  // Maker–checker: deciding about a transfer awaiting approval is an approver's.
  ['POST', '/admin/transfers/{originId}/approve', 'approver'],
  ['POST', '/admin/transfers/{originId}/reject', 'approver'],
  ['POST', '/admin/transfers/approve', 'approver'],
  ['POST', '/admin/transfers/reject', 'approver'],
  // Calling a scheduled transfer off before its moment is an operator's, as creating it is.
  ['POST', '/admin/transfers/{originId}/cancel', 'operator'],
  ['POST', '/admin/transfers/cancel', 'operator'],
  ['GET', '/admin/transfers/scheduled-totals', 'viewer'],
  ['GET', '/admin/transfers/{originId}/raw', 'operator'],
  ['POST', '/admin/bank/lookup', 'operator'],
  ['POST', '/admin/sub-accounts', 'admin'],
  ['GET', '/admin/sub-accounts', 'viewer'],
  ['POST', '/admin/sub-accounts/{address}/disable', 'admin'],
  ['GET', '/admin/payees', 'viewer'],
  ['GET', '/admin/payees/{address}', 'viewer'],
  ['POST', '/admin/payees', 'operator'],
  ['POST', '/admin/payees/{address}/block', 'approver'],
  ['POST', '/admin/payees/{address}/unblock', 'approver'],
  // The daily close: a reading, any key's.
  ['GET', '/admin/reports/daily', 'viewer'],
  ['GET', '/admin/reports/daily.csv', 'viewer'],
  ['GET', '/admin/reports/daily.xlsx', 'viewer'],
  ['POST', '/admin/reconcile', 'operator'],
  ['GET', '/admin/cancellations', 'viewer'],
  ['POST', '/admin/cancellations/{originId}/ack', 'operator'],
  // Anomalies: reading them is a viewer's; closing one (with a note) an operator's.
  ['GET', '/admin/anomalies', 'viewer'],
  ['POST', '/admin/anomalies/{id}/resolve', 'operator'],
  ['POST', '/admin/anomalies/unknown-debits/{id}/resolve', 'operator'],
  ['POST', '/admin/statements', 'operator'],
  ['GET', '/admin/statements', 'viewer'],
  ['GET', '/admin/statements/{id}', 'viewer'],
  ['GET', '/admin/audit', 'viewer'],
  ['POST', '/admin/keys', 'admin'],
  ['GET', '/admin/keys', 'admin'],
  ['POST', '/admin/keys/{name}/revoke', 'admin'],
  // Webhooks: where giro's events go and the secrets that prove them are an admin's; reading them, a viewer's.
  ['POST', '/admin/webhooks', 'admin'],
  ['GET', '/admin/webhooks', 'viewer'],
  ['GET', '/admin/webhooks/{id}', 'viewer'],
  ['PATCH', '/admin/webhooks/{id}', 'admin'],
  ['DELETE', '/admin/webhooks/{id}', 'admin'],
  ['POST', '/admin/webhooks/{id}/rotate-secret', 'admin'],
  ['POST', '/admin/webhooks/{id}/test', 'admin'],
  ['GET', '/admin/webhooks/{id}/deliveries', 'viewer'],
  ['POST', '/admin/webhooks/{id}/redeliver-dead', 'admin'],
  ['GET', '/admin/webhook-deliveries/{deliveryId}', 'viewer'],
  ['GET', '/admin/webhook-deliveries/{deliveryId}/attempts', 'viewer'],
  ['POST', '/admin/webhook-deliveries/{deliveryId}/redeliver', 'admin'],
  ['GET', '/admin/transfers/{originId}/webhook-deliveries', 'viewer'],
];

const TOKEN = 'host-admin-token-0123456789';
const answer = async () => ({});
const transfers = {
  validateRequest: (body: unknown) => body,
  requestTransfer: async () => ({ movement: {}, created: true }),
};
const movements = { listMovements: async () => ({ items: [], nextCursor: null }), getMovement: answer };
const bankLookups = { refreshMovement: answer, rawBankAnswer: answer, lookUpAtBank: answer };
const cancellations = {
  listCancellations: async () => [],
  listCancellationPage: async () => ({ items: [], nextCursor: null }),
  acknowledgeCancellation: answer,
};
const overviews = { overview: answer };
const anomalies = {
  listAnomalies: async () => ({ items: [], nextCursor: null }),
  resolveAnomaly: answer,
  resolveUnknownDebit: answer,
};
const approvals = { approve: answer, reject: answer, approveMany: async () => [], rejectMany: async () => [] };
const scheduled = { cancel: answer, cancelMany: async () => [], totals: async () => ({ items: [], truncated: false }) };
const subAccounts = { registerSubAccount: answer, listSubAccounts: async () => [], disableSubAccount: answer };
const sweeps = { sweep: answer };
/** The audit trail: what the guard and the interceptor hand it, kept to look at. */
const audited = {
  runs: [] as { who: Actor | null; action: string }[],
  refusals: [] as { request: AuditRequest; statusCode: number | null; message: string }[],
};
const audit = {
  runAs: (who: Actor | null, action: string, work: () => Promise<unknown>) => {
    audited.runs.push({ who, action });
    return work();
  },
  recordRefusal: async (request: AuditRequest, statusCode: number | null, message: string) => {
    audited.refusals.push({ request, statusCode, message });
  },
  list: async () => ({ items: [], nextCursor: null }),
};
const webhooks = {
  createEndpoint: answer,
  listEndpoints: async () => [],
  getEndpoint: answer,
  updateEndpoint: answer,
  deleteEndpoint: async () => undefined,
  rotateSecret: answer,
  sendTestEvent: answer,
  listDeliveries: async () => ({ items: [], nextCursor: null }),
  redeliverDead: async () => ({ redelivered: 0 }),
  getDelivery: answer,
  listAttempts: async () => [],
  redeliver: answer,
};

/** Records the actor of each request that reached its route, as an audit trail would read it. */
class ActorRecorder implements NestInterceptor {
  static readonly seen: (Actor | undefined)[] = [];
  intercept(context: ExecutionContext, next: CallHandler) {
    ActorRecorder.seen.push(actorOf(context.switchToHttp().getRequest<IncomingMessage>()));
    return next.handle();
  }
}

describe('admin routes and roles', () => {
  let dir: string;
  let dataSource: DataSource;
  let app: INestApplication;
  let url: string;
  const keys: Partial<Record<Role, string>> = {};
  let revoked: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-admin-roles-'));
    dataSource = await new DataSource(dataSourceOptionsFromUrl(`sqlite:${join(dir, 'keys.sqlite')}`)).initialize();
    await runTransferMigrations(dataSource);
    const apiKeys = new ApiKeyService(dataSource);
    for (const role of ROLES) keys[role] = (await apiKeys.createKey({ name: `${role}-key`, role })).key;
    revoked = (await apiKeys.createKey({ name: 'gone', role: 'admin' })).key;
    await apiKeys.revokeKey('gone');

    @Global()
    @Module({
      providers: [
        { provide: TransferService, useValue: transfers },
        { provide: MovementService, useValue: movements },
        { provide: BankLookupService, useValue: bankLookups },
        { provide: CancellationService, useValue: cancellations },
        { provide: TransferOverviewService, useValue: overviews },
        { provide: SubAccountService, useValue: subAccounts },
        { provide: SweepService, useValue: sweeps },
        { provide: ApiKeyService, useValue: apiKeys },
        { provide: WebhookService, useValue: webhooks },
        { provide: AnomalyService, useValue: anomalies },
        { provide: ApprovalService, useValue: approvals },
        { provide: ScheduledTransferService, useValue: scheduled },
        { provide: AuditService, useValue: audit },
      ],
      exports: [
        TransferService,
        MovementService,
        BankLookupService,
        CancellationService,
        TransferOverviewService,
        SubAccountService,
        SweepService,
        ApiKeyService,
        WebhookService,
        AnomalyService,
        ApprovalService,
        ScheduledTransferService,
        AuditService,
      ],
    })
    class Services {}

    const moduleRef = await Test.createTestingModule({
      imports: [Services, DiscoveryModule, TransferAdminModule.forRoot({ adminToken: TOKEN })],
      providers: [{ provide: APP_INTERCEPTOR, useClass: ActorRecorder }],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    setupAdminOpenApi(app);
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await dataSource?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, token?: string) {
    const response = await fetch(`${url}${path.replace(/\{id\}/g, 'ep_1').replace(/\{[^}]+\}/g, '1')}`, {
      method,
      headers: {
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
        ...((method === 'POST' || method === 'PATCH') && { 'content-type': 'application/json' }),
      },
      ...((method === 'POST' || method === 'PATCH') && { body: '{}' }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    const json: any = await response.json().catch(() => undefined);
    return { status: response.status, headers: response.headers, json };
  }

  it('has every route of the module in the table, each declaring its role itself', () => {
    const reflector = app.get(Reflector);
    const declared: [string, string, Role | undefined][] = [];
    for (const wrapper of app.get(DiscoveryService).getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller || !String(Reflect.getMetadata(PATH_METADATA, controller)).startsWith('admin')) continue;
      const base = `/${Reflect.getMetadata(PATH_METADATA, controller)}`;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        const path = Reflect.getMetadata(PATH_METADATA, handler);
        if (name === 'constructor' || path === undefined) continue;
        const method = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'][Reflect.getMetadata(METHOD_METADATA, handler)];
        const full = `${base}${path === '/' ? '' : `/${path}`}`.replace(/:(\w+)/g, '{$1}');
        declared.push([
          method as string,
          full,
          reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [handler, controller]),
        ]);
      }
    }
    const undeclared = declared.filter(([, , role]) => role === undefined).map(([m, p]) => `${m} ${p}`);
    expect({ routesWithoutRequiresRole: undeclared }).toEqual({ routesWithoutRequiresRole: [] });
    const sort = (rows: unknown[][]) => rows.map((row) => row.join(' ')).sort();
    expect(sort(declared)).toEqual(sort(ROUTE_ROLES));
  });

  describe.each(ROLES)('a %s key', (held) => {
    it.each(ROUTE_ROLES)('%s %s (needs %s)', async (method, path, needed) => {
      const reply = await call(method, path, keys[held]);
      if (roleAllows(held, needed)) {
        expect([401, 403]).not.toContain(reply.status);
      } else {
        expect(reply.status).toBe(403);
        expect(reply.json).toEqual({
          statusCode: 403,
          code: 'FORBIDDEN',
          error: 'Forbidden',
          message: expect.stringContaining(`needs the ${needed} role`),
          requiredRole: needed,
          role: held,
        });
        expect(reply.json.message).toContain(`key "${held}-key" has ${held}`);
      }
    });
  });

  it('keeps a viewer from changing anything, an operator from keys and sub-accounts, an approver from creating', async () => {
    expect((await call('POST', '/admin/transfers', keys.viewer)).status).toBe(403);
    expect((await call('POST', '/admin/cancellations/1/ack', keys.viewer)).status).toBe(403);
    expect((await call('POST', '/admin/keys', keys.operator)).status).toBe(403);
    expect((await call('GET', '/admin/keys', keys.operator)).status).toBe(403);
    expect((await call('POST', '/admin/sub-accounts', keys.operator)).status).toBe(403);
    expect((await call('POST', '/admin/transfers', keys.approver)).status).toBe(403);
    expect((await call('GET', '/admin/transfers', keys.approver)).status).toBe(200);
  });

  it('lets the admin token (the bootstrap admin) use every route', async () => {
    for (const [method, path] of ROUTE_ROLES)
      expect([401, 403]).not.toContain((await call(method, path, TOKEN)).status);
  });

  it('answers 401, never 403, without a valid credential: none, unknown, revoked, a near miss', async () => {
    const near = `${(keys.admin as string).slice(0, -1)}${(keys.admin as string).endsWith('0') ? '1' : '0'}`;
    for (const token of [undefined, revoked, near, 'giro_0000000000000000_'.padEnd(86, '0'), `${TOKEN}x`]) {
      const reply = await call('GET', '/admin/transfers', token);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="giro-admin"');
      expect(reply.json).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('puts the actor on the request: key id, name and role, never the key', async () => {
    ActorRecorder.seen.length = 0;
    await call('GET', '/admin/transfers', keys.viewer);
    await call('GET', '/admin/transfers', TOKEN);
    const [viewer, bootstrap] = ActorRecorder.seen;
    expect(viewer).toEqual({ keyId: (keys.viewer as string).slice(5, 21), name: 'viewer-key', role: 'viewer' });
    expect(bootstrap).toEqual({ keyId: 'admin-token', name: 'admin-token', role: 'admin' });
  });

  it('records in the audit trail every request it refuses, reads included (403 with the key, 401 without)', async () => {
    audited.refusals.length = 0;
    await call('POST', '/admin/cancellations/1/ack', keys.viewer);
    await call('POST', '/admin/keys/1/revoke', undefined);
    await call('GET', '/admin/keys', keys.viewer);
    expect(audited.refusals).toEqual([
      {
        request: {
          who: { keyId: (keys.viewer as string).slice(5, 21), name: 'viewer-key', role: 'viewer' },
          action: 'cancellation.ack',
          requestId: expect.any(String),
          clientAddress: '127.0.0.1',
          originId: 1,
          target: null,
        },
        statusCode: 403,
        message: expect.stringContaining('needs the operator role'),
      },
      {
        request: {
          who: null,
          action: 'key.revoke',
          requestId: expect.any(String),
          clientAddress: '127.0.0.1',
          originId: null,
          target: '1',
        },
        statusCode: 401,
        message: expect.stringContaining('missing bearer token'),
      },
      {
        request: {
          who: expect.objectContaining({ name: 'viewer-key' }),
          action: 'GET /admin/keys',
          requestId: expect.any(String),
          clientAddress: '127.0.0.1',
          originId: null,
          target: null,
        },
        statusCode: 403,
        message: expect.stringContaining('needs the admin role'),
      },
    ]);
  });

  it('runs every mutating route it lets through in an audit scope, as its declared action or else its route', async () => {
    audited.runs.length = 0;
    await call('POST', '/admin/cancellations/1/ack', keys.operator);
    await call('GET', '/admin/cancellations', keys.operator);
    await call('POST', '/admin/transfers/1/approve', keys.approver);
    expect(audited.runs).toEqual([
      { who: expect.objectContaining({ name: 'operator-key' }), action: 'cancellation.ack' },
      {
        who: expect.objectContaining({ name: 'approver-key' }),
        action: expect.stringMatching(/^(transfer\.approve|POST \/admin\/transfers\/:originId\/approve)$/),
      },
    ]);
  });

  it('says in the OpenAPI document which role each route needs', async () => {
    const spec = (await call('GET', '/docs-json')).json;
    for (const [method, path, role] of ROUTE_ROLES) {
      const operation = spec.paths[path]?.[method.toLowerCase()];
      expect({ route: `${method} ${path}`, role: operation?.['x-giro-role'] }).toEqual({
        route: `${method} ${path}`,
        role,
      });
      expect(operation.responses['403'].description).toContain(`needs the ${role} role`);
    }
  });
});
