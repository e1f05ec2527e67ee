import type { LookupAddress } from 'node:dns';
import {
  addressKind,
  embeddedIPv4,
  explainAddress,
  explainWebhookUrl,
  normalizedWebhookUrl,
  safeLookup,
  type WebhookTargetRules,
} from './webhook-target';

// Where a webhook may go: the URL when it is registered, the address when a connection is made.

const STRICT: WebhookTargetRules = { allowLoopback: false, allowPrivate: false };
const LOOPBACK: WebhookTargetRules = { allowLoopback: true, allowPrivate: false };
const PRIVATE: WebhookTargetRules = { allowLoopback: false, allowPrivate: true };

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['::ffff:169.254.169.254', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'private'],
    ['0.0.0.0', 'unusable'],
    ['0.1.2.3', 'unusable'],
    ['::', 'unusable'],
    ['::ffff:0.0.0.0', 'unusable'],
    ['224.0.0.1', 'unusable'],
    ['239.255.255.250', 'unusable'],
    ['255.255.255.255', 'unusable'],
    ['ff02::1', 'unusable'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['192.169.0.1', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['198.18.0.1', 'private'],
    ['198.19.255.254', 'private'],
    ['198.20.0.1', 'public'],
    ['fec0::1', 'private'],
    ['feff::1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::808:808', 'private'],
    ['2002:a9fe:a9fe::', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::10.0.0.1', 'private'],
    ['::a00:1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:808:808', 'public'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
  ])('%s is %s', (ip, kind) => {
    expect(addressKind(ip)).toBe(kind);
  });
});

describe('embeddedIPv4', () => {
  it.each([
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['2002:a9fe:a9fe::', '169.254.169.254'],
    ['::10.0.0.1', '10.0.0.1'],
    ['::ffff:0:a00:1', '10.0.0.1'],
    ['::ffff:a00:1', '10.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', '10.0.0.1'],
  ])('reads %s as %s', (ip, ipv4) => {
    expect(embeddedIPv4(ip)).toBe(ipv4);
  });

  it('reads nothing from an IPv6 address that carries none', () => {
    expect(embeddedIPv4('2001:4860:4860::8888')).toBeUndefined();
    expect(embeddedIPv4('fe80::1%eth0')).toBeUndefined();
  });
});

describe('explainAddress', () => {
  it('refuses loopback and private addresses unless each is allowed, and unusable ones always', () => {
    expect(explainAddress('127.0.0.1', STRICT)).toMatch(/loopback/);
    expect(explainAddress('127.0.0.1', LOOPBACK)).toBeUndefined();
    expect(explainAddress('10.0.0.1', STRICT)).toMatch(/private or link-local/);
    expect(explainAddress('10.0.0.1', LOOPBACK)).toMatch(/private/);
    expect(explainAddress('10.0.0.1', PRIVATE)).toBeUndefined();
    expect(explainAddress('127.0.0.1', PRIVATE)).toMatch(/loopback/);
    expect(explainAddress('0.0.0.0', { allowLoopback: true, allowPrivate: true })).toMatch(/not an address/);
    expect(explainAddress('224.0.0.1', { allowLoopback: true, allowPrivate: true })).toMatch(/not an address/);
    expect(explainAddress('8.8.8.8', STRICT)).toBeUndefined();
  });
});

describe('explainWebhookUrl', () => {
  it('accepts an https URL to a public host or address', () => {
    expect(explainWebhookUrl('https://hooks.example.com/giro?tenant=7', STRICT)).toBeUndefined();
    expect(explainWebhookUrl('https://8.8.8.8/hooks', STRICT)).toBeUndefined();
    expect(explainWebhookUrl('https://[2001:4860:4860::8888]:8443/hooks', STRICT)).toBeUndefined();
  });

  it('refuses what is not an absolute http(s) URL', () => {
    expect(explainWebhookUrl(undefined, STRICT)).toBe('must be a URL');
    expect(explainWebhookUrl('', STRICT)).toBe('must be a URL');
    expect(explainWebhookUrl(42, STRICT)).toBe('must be a URL');
    expect(explainWebhookUrl('/hooks', STRICT)).toBe('must be an absolute URL');
    expect(explainWebhookUrl('ftp://hooks.example.com/', STRICT)).toBe('must be an https URL');
    expect(explainWebhookUrl('file:///etc/passwd', LOOPBACK)).toBe('must be an https URL');
    expect(explainWebhookUrl(`https://hooks.example.com/${'a'.repeat(2048)}`, STRICT)).toMatch(/at most 2048/);
  });

  it('refuses plain http to a public host, even with loopback allowed', () => {
    expect(explainWebhookUrl('http://hooks.example.com/', STRICT)).toMatch(/must be an https URL/);
    expect(explainWebhookUrl('http://hooks.example.com/', LOOPBACK)).toMatch(/must be an https URL/);
    expect(explainWebhookUrl('http://8.8.8.8/', LOOPBACK)).toMatch(/must be an https URL/);
    expect(explainWebhookUrl('http://10.0.0.1/', { allowLoopback: true, allowPrivate: true })).toMatch(
      /must be an https URL/,
    );
  });

  it('allows http only to a loopback host, and only when loopback is allowed', () => {
    expect(explainWebhookUrl('http://127.0.0.1:8080/hooks', LOOPBACK)).toBeUndefined();
    expect(explainWebhookUrl('http://[::1]:8080/hooks', LOOPBACK)).toBeUndefined();
    expect(explainWebhookUrl('http://localhost:8080/hooks', LOOPBACK)).toBeUndefined();
    expect(explainWebhookUrl('http://127.0.0.1:8080/hooks', STRICT)).toMatch(/must be an https URL/);
    expect(explainWebhookUrl('http://localhost:8080/hooks', STRICT)).toMatch(/must be an https URL/);
  });

  it('refuses a loopback host over https too unless allowed, however the address is written', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://localhost/',
      'https://LOCALHOST:8443/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://2130706433/',
      'https://0x7f000001/',
      'https://127.1/',
    ]) {
      expect([url, explainWebhookUrl(url, STRICT)]).toEqual([url, expect.stringMatching(/loopback/)]);
      expect([url, explainWebhookUrl(url, LOOPBACK)]).toEqual([url, undefined]);
    }
  });

  it('refuses private, link-local and metadata addresses unless private ones are allowed', () => {
    for (const url of [
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.0.10/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fc00::1]/',
      'https://[fe80::1]/',
      'https://[::ffff:10.0.0.1]/',
    ]) {
      expect([url, explainWebhookUrl(url, LOOPBACK)]).toEqual([url, expect.stringMatching(/private or link-local/)]);
      expect([url, explainWebhookUrl(url, PRIVATE)]).toEqual([url, undefined]);
    }
  });

  it('refuses the IPv4 private addresses an IPv6 address carries, and the benchmarking and site-local networks', () => {
    for (const url of [
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::]/',
      'https://[::10.0.0.1]/',
      'https://[::ffff:0:a00:1]/',
      'https://[fec0::1]/',
      'https://198.18.0.1/',
    ]) {
      expect([url, explainWebhookUrl(url, LOOPBACK)]).toEqual([url, expect.stringMatching(/private or link-local/)]);
      expect([url, explainWebhookUrl(url, PRIVATE)]).toEqual([url, undefined]);
    }
    expect(explainWebhookUrl('https://[64:ff9b::7f00:1]/', STRICT)).toMatch(/loopback/);
    expect(explainWebhookUrl('https://[64:ff9b::808:808]/', STRICT)).toBeUndefined();
  });

  it('refuses spaces and control characters, which the URL parser would drop or trim', () => {
    expect(explainWebhookUrl('https://hooks.example.com/gi\r\nro', STRICT)).toBe(
      'must not contain spaces or control characters, found U+000D at position 29',
    );
    expect(explainWebhookUrl('https://hooks.exa\tmple.com/', STRICT)).toMatch(/found U\+0009 at position 18/);
    expect(explainWebhookUrl(' https://hooks.example.com/', STRICT)).toMatch(/found U\+0020 at position 1/);
    expect(explainWebhookUrl('https://hooks.example.com/\u0000', STRICT)).toMatch(/U\+0000/);
    expect(explainWebhookUrl('https://hooks.example.com/\u007f', STRICT)).toMatch(/U\+007F/);
  });

  it('refuses the unspecified, broadcast and multicast addresses whatever is allowed', () => {
    const all = { allowLoopback: true, allowPrivate: true };
    for (const url of ['https://0.0.0.0/', 'https://[::]/', 'https://224.0.0.1/', 'https://[ff02::1]/']) {
      expect([url, explainWebhookUrl(url, all)]).toEqual([url, expect.stringMatching(/not an address/)]);
    }
  });

  it('refuses a user name or password, and a fragment', () => {
    expect(explainWebhookUrl('https://user:secret@hooks.example.com/', STRICT)).toMatch(/user name or password/);
    expect(explainWebhookUrl('https://user@hooks.example.com/', STRICT)).toMatch(/user name or password/);
    expect(explainWebhookUrl('http://user:pw@127.0.0.1/', LOOPBACK)).toMatch(/user name or password/);
    expect(explainWebhookUrl('https://hooks.example.com/#part', STRICT)).toMatch(/fragment/);
  });
});

describe('normalizedWebhookUrl', () => {
  it('is the URL the parser reads: host in lowercase, addresses canonical, an empty path as /', () => {
    expect(normalizedWebhookUrl('HTTPS://Hooks.Example.COM:443')).toBe('https://hooks.example.com/');
    expect(normalizedWebhookUrl('https://8.8.8.8')).toBe('https://8.8.8.8/');
    expect(normalizedWebhookUrl('https://0x08080808/a/../b?x=1')).toBe('https://8.8.8.8/b?x=1');
    expect(normalizedWebhookUrl('https://[2001:4860:4860:0::8888]:8443/h')).toBe(
      'https://[2001:4860:4860::8888]:8443/h',
    );
    expect(normalizedWebhookUrl('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
  });
});

describe('safeLookup', () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };
  const lookup = (rules: WebhookTargetRules, hostname: string, options: object) =>
    new Promise<Answer>((resolve) => {
      safeLookup(rules)(hostname, options, (error, address, family) => resolve({ error, address, family }));
    });

  it('refuses a name that resolves to a forbidden address (localhost without loopback allowed)', async () => {
    const single = await lookup(STRICT, 'localhost', {});
    expect(single.error?.code).toBe('EWEBHOOKTARGET');
    expect(single.error?.message).toMatch(/^localhost resolves to .* loopback address/);
    expect(single.address).toBe('');
    const all = await lookup(STRICT, 'localhost', { all: true });
    expect(all.error?.code).toBe('EWEBHOOKTARGET');
    expect(all.address).toEqual([]);
  });

  it('resolves the same name when loopback is allowed, in both forms a socket asks for', async () => {
    const single = await lookup(LOOPBACK, 'localhost', {});
    expect(single.error).toBeNull();
    expect(addressKind(single.address as string)).toBe('loopback');
    expect([4, 6]).toContain(single.family);
    const all = await lookup(LOOPBACK, 'localhost', { all: true });
    expect(all.error).toBeNull();
    expect((all.address as LookupAddress[]).length).toBeGreaterThan(0);
    for (const { address } of all.address as LookupAddress[]) expect(addressKind(address)).toBe('loopback');
  });

  it('refuses an address literal the rules forbid (a socket looks those up too)', async () => {
    const answer = await lookup(LOOPBACK, '10.0.0.1', { family: 4 });
    expect(answer.error?.code).toBe('EWEBHOOKTARGET');
    const nat64 = await lookup(LOOPBACK, '64:ff9b::a9fe:a9fe', { family: 6 });
    expect(nat64.error?.code).toBe('EWEBHOOKTARGET');
  });

  it('passes on a name that does not resolve as the resolver said', async () => {
    const answer = await lookup(LOOPBACK, 'no-such-host.invalid', {});
    expect(answer.error?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});
