import {
  BankLookupService,
  CancellationService,
  MovementNotFoundError,
  MovementService,
  type MovementView,
  type SweepReport,
  SweepService,
  TransferOverviewService,
  TransferService,
  transferRequestOpenApiSchema,
  validateTransferIntent,
} from '@giro/transfer-module';
import {
  Body,
  Controller,
  Get,
  Global,
  type INestApplication,
  Module,
  type ModuleMetadata,
  Post,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { setupAdminOpenApi } from './shared/http/admin-openapi';
import { SweepUnavailableError } from './sweep/sweep-unavailable.error';
import { TransferAdminModule } from './transfer-admin.module';
import { TransferAdminModuleOptionsError } from './transfer-admin.options';

// TransferAdminModule in a host application of its own, over HTTP, with TransferModule's services and SweepService
// stubbed: the bearer token, the module's pipe and filter on its routes only, the sweep option, the start-up
// checks of its options and the OpenAPI helper. The routes against giro itself: test/reconciler-admin.

const TOKEN = 'host-admin-token-0123456789';

const REPORT: SweepReport = {
  claimed: 1,
  sent: 0,
  queried: 1,
  changed: 1,
  completed: 1,
  failed: 0,
  anomalies: 0,
  errors: 0,
  expired: 0,
  released: 0,
  closedDay: null,
  durationMs: 3,
  nextDueAt: null,
};

const movements = {
  getMovement: jest.fn(async (originId: number): Promise<Partial<MovementView>> => {
    if (originId === 404) throw new MovementNotFoundError(originId);
    return { originId, status: 'CREATED' };
  }),
};
const sweeps = { sweep: jest.fn(async (): Promise<SweepReport> => REPORT) };

/** The services of TransferModule the admin routes inject, stubbed (only MovementService is called here). */
const TRANSFER_SERVICES = [
  { provide: TransferService, useValue: {} },
  { provide: MovementService, useValue: movements },
  { provide: BankLookupService, useValue: {} },
  { provide: CancellationService, useValue: {} },
  { provide: TransferOverviewService, useValue: {} },
];
const SERVICE_TOKENS = TRANSFER_SERVICES.map(({ provide }) => provide);

/** What TransferModule with `isGlobal: true` provides, stubbed. */
@Global()
@Module({
  providers: [...TRANSFER_SERVICES, { provide: SweepService, useValue: sweeps }],
  exports: [...SERVICE_TOKENS, SweepService],
})
class StubTransferModule {}

class HostPayload {
  name?: string;
}

/** A route of the host's own: the admin module's pipe and filter must leave it alone. */
@Controller('host')
class HostController {
  @Post('echo')
  echo(@Body() body: HostPayload) {
    return body;
  }

  @Get('lookup')
  lookup() {
    throw new MovementNotFoundError(7);
  }
}

async function startHost(metadata: ModuleMetadata): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({ controllers: [HostController], ...metadata }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  setupAdminOpenApi(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}

async function call(url: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  const json: any = await response.json();
  return { status: response.status, headers: response.headers, json };
}

describe('TransferAdminModule in a host application', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    ({ app, url } = await startHost({
      imports: [StubTransferModule, TransferAdminModule.forRoot({ adminToken: TOKEN })],
    }));
  });
  afterAll(() => app.close());
  beforeEach(() => jest.clearAllMocks());

  it('serves the admin routes with the host’s token, and answers 401 without it', async () => {
    const answer = await call(url, 'GET', '/admin/transfers/42', { token: TOKEN });
    expect(answer).toMatchObject({ status: 200, json: { originId: 42, status: 'CREATED' } });
    expect(movements.getMovement).toHaveBeenCalledWith(42);

    for (const token of [undefined, 'another-token-of-some-length']) {
      const refused = await call(url, 'GET', '/admin/transfers/42', token === undefined ? {} : { token });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="giro-admin"');
    }
    expect(movements.getMovement).toHaveBeenCalledTimes(1);
  });

  it('answers the transfer module’s errors and bad parameters as the admin API does', async () => {
    expect(await call(url, 'GET', '/admin/transfers/404', { token: TOKEN })).toMatchObject({
      status: 404,
      json: { statusCode: 404, error: 'Not Found', errorName: 'MovementNotFoundError', originId: 404 },
    });
    const bad = await call(url, 'GET', '/admin/transfers/abc', { token: TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.json.violations).toEqual([expect.objectContaining({ field: 'originId', rule: 'origin_id' })]);
  });

  it('leaves the host’s own routes to the host: no admin pipe, no admin filter', async () => {
    // Unknown fields pass (the admin pipe would refuse them), and a transfer error is Nest's default 500.
    expect(await call(url, 'POST', '/host/echo', { body: { name: 'a', extra: 1 } })).toMatchObject({
      status: 201,
      json: { name: 'a', extra: 1 },
    });
    expect(await call(url, 'GET', '/host/lookup')).toMatchObject({ status: 500 });
  });

  it('runs POST /admin/reconcile through SweepService by default', async () => {
    expect(await call(url, 'POST', '/admin/reconcile', { token: TOKEN })).toEqual(
      expect.objectContaining({ status: 200, json: REPORT }),
    );
    expect(sweeps.sweep).toHaveBeenCalledTimes(1);
  });

  it('publishes the admin routes and the bearer scheme at /docs-json', async () => {
    const spec = (await call(url, 'GET', '/docs-json')).json;
    expect(spec.info).toMatchObject({ title: 'giro admin API', version: '1' });
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/admin/transfers',
        '/admin/transfers/{originId}',
        '/admin/transfers/{originId}/refresh',
        '/admin/reconcile',
        '/admin/cancellations',
        '/admin/cancellations/{originId}/ack',
        '/host/echo',
      ]),
    );
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('TransferAdminModule options', () => {
  afterEach(() => jest.clearAllMocks());

  it('runs POST /admin/reconcile through runSweep, given with forRootAsync; 503 when it refuses', async () => {
    const runSweep = jest.fn(async () => REPORT);
    const { app, url } = await startHost({
      imports: [
        StubTransferModule,
        TransferAdminModule.forRootAsync({ useFactory: async () => ({ adminToken: TOKEN, runSweep }) }),
      ],
    });
    try {
      expect((await call(url, 'POST', '/admin/reconcile', { token: TOKEN })).json).toEqual(REPORT);
      expect(runSweep).toHaveBeenCalledTimes(1);
      expect(sweeps.sweep).not.toHaveBeenCalled();

      runSweep.mockRejectedValueOnce(new SweepUnavailableError('shutting down'));
      expect(await call(url, 'POST', '/admin/reconcile', { token: TOKEN })).toMatchObject({
        status: 503,
        json: { statusCode: 503, error: 'Service Unavailable', message: 'shutting down' },
      });
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ adminToken: 'short' }, 'adminToken must be a string of at least 16 characters'],
    [{ adminToken: undefined }, 'adminToken must be a string of at least 16 characters'],
    [{ adminToken: TOKEN, token: TOKEN }, 'token is not an option'],
    [{ adminToken: TOKEN, runSweep: 'sweep' }, 'runSweep must be a function'],
    [{ adminToken: TOKEN, statementColumns: 'fecha:Fecha' }, 'statementColumns: "fecha:Fecha" is not field:Header'],
    [{ adminToken: TOKEN, statementColumns: 7 }, 'statementColumns must be a string'],
  ])('refuses to start with %j, naming the option and never its value', async (options, message) => {
    const compiling = Test.createTestingModule({
      imports: [StubTransferModule, TransferAdminModule.forRoot(options as never)],
    }).compile();
    await expect(compiling).rejects.toThrow(TransferAdminModuleOptionsError);
    await expect(compiling).rejects.toThrow(message);
    await expect(compiling).rejects.not.toThrow('short');
  });

  it('refuses to start without SweepService to default to, unless runSweep is given', async () => {
    @Module({ providers: TRANSFER_SERVICES, exports: SERVICE_TOKENS })
    class TransfersOnly {}
    await expect(
      Test.createTestingModule({
        imports: [
          TransferAdminModule.forRootAsync({ imports: [TransfersOnly], useFactory: () => ({ adminToken: TOKEN }) }),
        ],
      }).compile(),
    ).rejects.toThrow('runSweep is required when SweepService cannot be injected');
  });
});

describe('the OpenAPI example of POST /admin/transfers', () => {
  it('is a valid transfer request', () => {
    expect(validateTransferIntent(transferRequestOpenApiSchema().example)).toMatchObject({ ok: true });
  });
});
