import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// Where a webhook may go. A URL an operator registers reaches from inside the network giro runs in, so by
// default it may only name a public address over https: not loopback (the reconciler's own admin API, a
// database), not a private or link-local one (the cloud's metadata service at 169.254.169.254, the office
// network). The address is checked when the URL is registered and again on every connection, after the
// name is resolved, so a name that later resolves elsewhere (DNS rebinding) is refused too.

export interface WebhookTargetRules {
  allowLoopback: boolean;
  allowPrivate: boolean;
}

type AddressKind = 'public' | 'loopback' | 'private' | 'unusable';

function blockList(ipv4: [string, number][], ipv6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

const LOOPBACK = blockList([['127.0.0.0', 8]], [['::1', 128]]);
const PRIVATE = blockList(
  [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['169.254.0.0', 16], // link-local, cloud metadata
  ],
  [
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
  ],
);
const UNUSABLE = blockList(
  [
    ['0.0.0.0', 8],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ],
  [
    ['::', 128],
    ['ff00::', 8], // multicast
  ],
);

/** Which kind of address `ip` is (IPv4-mapped IPv6 addresses count as their IPv4 address). */
export function addressKind(ip: string): AddressKind {
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (UNUSABLE.check(ip, family)) return 'unusable';
  if (LOOPBACK.check(ip, family)) return 'loopback';
  if (PRIVATE.check(ip, family)) return 'private';
  return 'public';
}

/** Why giro may not connect to `ip`, or undefined when it may. */
export function explainAddress(ip: string, rules: WebhookTargetRules): string | undefined {
  const kind = addressKind(ip);
  if (kind === 'unusable') return `${ip} is not an address a webhook can be sent to`;
  if (kind === 'loopback' && !rules.allowLoopback) {
    return `${ip} is a loopback address (allowed only with WEBHOOK_ALLOW_LOOPBACK=true / webhooks.allowLoopback)`;
  }
  if (kind === 'private' && !rules.allowPrivate) {
    return `${ip} is a private or link-local address (allowed only with WEBHOOK_ALLOW_PRIVATE=true / webhooks.allowPrivate)`;
  }
  return undefined;
}

const MAX_URL_LENGTH = 2048;

function hostOf(url: URL): string {
  // An IPv6 literal keeps its brackets in URL.hostname.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (isIP(host) !== 0 && addressKind(host) === 'loopback');
}

/**
 * Why `value` cannot be a webhook URL, or undefined when it can: an absolute https URL (http only to a loopback
 * host, when loopback is allowed), no user or password in it, no fragment, at most 2048 characters, and an
 * address, when the host is one, that the rules allow. A host name is checked when it is resolved.
 */
export function explainWebhookUrl(value: unknown, rules: WebhookTargetRules): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must be a URL';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const host = hostOf(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.protocol === 'http:' && !(rules.allowLoopback && isLoopbackHost(host))) {
    return 'must be an https URL (http only to a loopback host, with loopback allowed: WEBHOOK_ALLOW_LOOPBACK=true / webhooks.allowLoopback)';
  }
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  if (url.hash !== '') return 'must not have a fragment (#…)';
  if (host === 'localhost' && !rules.allowLoopback) return explainAddress('127.0.0.1', rules);
  if (isIP(host) !== 0) return explainAddress(host, rules);
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the sockets of webhook deliveries: resolves like dns.lookup, then refuses the connection when
 * any address the name resolves to is one the rules forbid (undici passes it to net.connect and tls.connect).
 */
export function safeLookup(rules: WebhookTargetRules) {
  return (hostname: string, options: LookupAllOptions | number | object, callback: LookupCallback): void => {
    const all = typeof options === 'object' && (options as LookupAllOptions).all === true;
    dnsLookup(hostname, { ...(typeof options === 'object' ? options : {}), all: true }, (error, addresses) => {
      if (error) return callback(error, all ? [] : '');
      for (const { address } of addresses) {
        const problem = explainAddress(address, rules);
        if (problem !== undefined) {
          const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${problem}`);
          refused.code = 'EWEBHOOKTARGET';
          return callback(refused, all ? [] : '');
        }
      }
      if (all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first.address, first.family);
    });
  };
}
