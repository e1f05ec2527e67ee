import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BankLookupService,
  CancellationService,
  MovementService,
  SweepService,
  TransferOverviewService,
  TransferService,
} from '@giro/transfer-module';
import { Global, type INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TransferAdminModule } from '../transfer-admin.module';
import { CONSOLE_CONTENT_SECURITY_POLICY, ConsoleController } from './console.controller';
import { ConsoleAssets, consoleFileVersion } from './console-assets';

// The console's files over HTTP: only the three known ones, with their type, the console's own policy and cache
// headers; and the module option that leaves the console out. The page itself: test/console (Chromium).

/** The services of TransferModule the admin routes inject (none is called here). */
const TRANSFER_SERVICES = [
  TransferService,
  MovementService,
  BankLookupService,
  CancellationService,
  TransferOverviewService,
];

const TOKEN = 'host-admin-token-0123456789';
const SCRIPT = Buffer.from('console.log("giro")');

@Global()
@Module({
  providers: [
    ...TRANSFER_SERVICES.map((service) => ({ provide: service, useValue: {} })),
    { provide: SweepService, useValue: {} },
  ],
  exports: [...TRANSFER_SERVICES, SweepService],
})
class StubTransferModule {}

async function listening(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}

describe('ConsoleController', () => {
  let dir: string;
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'giro-console-'));
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'app.js'), SCRIPT);
    writeFileSync(join(dir, 'app.css'), 'body { margin: 0 }');
    writeFileSync(join(dir, 'secret.txt'), 'not for the browser');
    const moduleRef = await Test.createTestingModule({
      controllers: [ConsoleController],
      providers: [{ provide: ConsoleAssets, useValue: new ConsoleAssets(dir) }],
    }).compile();
    app = moduleRef.createNestApplication();
    url = await listening(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page at /console with the console policy, revalidated at every visit', async () => {
    const response = await fetch(`${url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>console</title>');
  });

  it('sends /console/ to /console, where the relative URLs of the page resolve', async () => {
    const response = await fetch(`${url}/console/`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get('location') ?? '', `${url}/console/`).pathname).toBe('/console');
  });

  it('serves its script and style with their types; immutable only at the URL of their version', async () => {
    const script = await fetch(`${url}/console/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('no-cache');
    expect(await script.text()).toBe(SCRIPT.toString());
    const versioned = await fetch(`${url}/console/app.js?v=${consoleFileVersion(SCRIPT)}`);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await fetch(`${url}/console/app.js?v=0000000000000000`);
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    const style = await fetch(`${url}/console/app.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 304 to a browser holding the current version', async () => {
    const first = await fetch(`${url}/console/app.css`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const again = await fetch(`${url}/console/app.css`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it.each([
    '/console/secret.txt',
    '/console/index.html',
    '/console/..%2Fsecret.txt',
    '/console/%2e%2e%2fapp.js',
    '/console/nested',
  ])('serves no other file: %s is 404', async (path) => {
    const response = await fetch(`${url}${path}`);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).not.toContain('not for the browser');
    expect(JSON.parse(text)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('says the console is not built when its files are missing', async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [ConsoleController],
      providers: [{ provide: ConsoleAssets, useValue: new ConsoleAssets(join(dir, 'nowhere')) }],
    }).compile();
    const empty = moduleRef.createNestApplication();
    try {
      const response = await fetch(`${await listening(empty)}/console`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toMatch(/not built: run `pnpm build`/);
    } finally {
      await empty.close();
    }
  });
});

describe('TransferAdminModule and the console', () => {
  const start = async (options: Parameters<typeof TransferAdminModule.forRoot>[0]) => {
    const moduleRef = await Test.createTestingModule({
      imports: [StubTransferModule, TransferAdminModule.forRoot(options)],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    return { app, url: await listening(app) };
  };

  it('mounts the console by default, without authentication', async () => {
    const { app, url } = await start({ adminToken: TOKEN });
    try {
      const response = await fetch(`${url}/console/app.js`);
      // 200 once the package is built, 404 "not built" before: either way the route is there, and no 401.
      expect([200, 404]).toContain(response.status);
      expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    } finally {
      await app.close();
    }
  });

  it('leaves it out with `console: false`', async () => {
    const { app, url } = await start({ adminToken: TOKEN, console: false });
    try {
      const response = await fetch(`${url}/console`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-security-policy')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
