import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distScript, startNode } from '../testing/child-process';

describe('giro-sandbox-bank certs (dist/main.js certs as a child process)', () => {
  it('writes the five files to ./certs, then keeps them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'giro-certs-cli-'));
    try {
      const first = startNode(distScript('main.js'), { cwd, env: {}, args: ['certs'] });
      expect((await first.exit).code).toBe(0);
      expect(first.output()).toMatch(/certificates written to .*certs \(missing/);
      expect(readdirSync(join(cwd, 'certs')).sort()).toEqual([
        'ca.pem',
        'client-key.pem',
        'client.pem',
        'server-key.pem',
        'server.pem',
      ]);
      const second = startNode(distScript('main.js'), { cwd, env: {}, args: ['certs'] });
      expect((await second.exit).code).toBe(0);
      expect(second.output()).toMatch(/valid until .*; kept/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
