import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Where a webhook may go. A URL an operator registers reaches from inside the network giro runs in, so by
// default it may only name a public address over https: not loopback (the reconciler's own admin API, a
// database), not a private or link-local one (the cloud's metadata service at 169.254.169.254, the office
// network). The address is checked when the URL is registered and again on every connection, after the
// name is resolved, so a name that later resolves elsewhere (DNS rebinding) is refused too. An IPv6 address that
// carries an IPv4 address a router or translator delivers to (NAT64, 6to4, Teredo, the mapped and compatible
// forms) is judged as that IPv4 address too, so `[64:ff9b::a9fe:a9fe]` is the metadata service it reaches.

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
    ['198.18.0.0', 15], // benchmarking, used as an internal network
  ],
  [
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['fec0::', 10], // site-local, deprecated but still routed inside some networks
    ['64:ff9b:1::', 48], // local-use NAT64: translates into the operator's own network
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

/** The IPv6 networks whose addresses carry an IPv4 address, and the byte offset of its 4 bytes. */
const IPV4_CARRIERS: readonly { network: ipaddr.IPv6; prefix: number; offset: number; inverted?: true }[] = [
  { cidr: '::ffff:0:0/96', offset: 12 }, // IPv4-mapped
  { cidr: '::ffff:0:0:0/96', offset: 12 }, // IPv4-translated (SIIT)
  { cidr: '::/96', offset: 12 }, // IPv4-compatible, deprecated
  { cidr: '64:ff9b::/96', offset: 12 }, // NAT64, well-known prefix
  { cidr: '2002::/16', offset: 2 }, // 6to4
  { cidr: '2001::/32', offset: 12, inverted: true as const }, // Teredo: the client's address, bits inverted
].map(({ cidr, ...rest }) => {
  const [network, prefix] = ipaddr.IPv6.parseCIDR(cidr);
  return { network, prefix, ...rest };
});

/** The IPv4 address an IPv6 address `ip` carries (see IPV4_CARRIERS), or undefined. */
export function embeddedIPv4(ip: string): string | undefined {
  if (!ipaddr.IPv6.isValid(ip)) return undefined;
  const address = ipaddr.IPv6.parse(ip);
  const carrier = IPV4_CARRIERS.find(({ network, prefix }) => address.match(network, prefix));
  if (carrier === undefined) return undefined;
  const bytes = address.toByteArray().slice(carrier.offset, carrier.offset + 4);
  return bytes.map((byte) => (carrier.inverted ? byte ^ 0xff : byte)).join('.');
}

const SEVERITY: readonly AddressKind[] = ['unusable', 'loopback', 'private', 'public'];

function ownKind(ip: string, family: 'ipv4' | 'ipv6'): AddressKind {
  if (UNUSABLE.check(ip, family)) return 'unusable';
  if (LOOPBACK.check(ip, family)) return 'loopback';
  if (PRIVATE.check(ip, family)) return 'private';
  return 'public';
}

/**
 * Which kind of address `ip` is: an IPv6 address that carries an IPv4 address is the stricter of its own kind
 * and that address's (`::1`, in the IPv4-compatible range, stays loopback).
 */
export function addressKind(ip: string): AddressKind {
  if (isIP(ip) !== 6) return ownKind(ip, 'ipv4');
  const own = ownKind(ip, 'ipv6');
  const carried = own === 'public' ? embeddedIPv4(ip) : undefined;
  if (carried === undefined) return own;
  const inner = ownKind(carried, 'ipv4');
  return SEVERITY[Math.min(SEVERITY.indexOf(own), SEVERITY.indexOf(inner))] as AddressKind;
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
/**
 * Where `value` has a space or a control character: a URL parser drops tabs and line breaks wherever they are and
 * trims spaces and controls at both ends, so what was typed and what is used would differ.
 */
function unparsedCharacterIndex(value: string): number {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f) return index;
  }
  return -1;
}

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
  const unparsed = unparsedCharacterIndex(value);
  if (unparsed !== -1) {
    const codePoint = `U+${value.charCodeAt(unparsed).toString(16).toUpperCase().padStart(4, '0')}`;
    return `must not contain spaces or control characters, found ${codePoint} at position ${unparsed + 1}`;
  }
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

/**
 * The URL a webhook is sent to, as the URL parser reads `value` (which explainWebhookUrl accepted): the host in
 * lowercase, an address in its canonical form, an empty path as `/`. What is stored and shown is what is used.
 */
export function normalizedWebhookUrl(value: string): string {
  return new URL(value).href;
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
