/**
 * Who a request comes from, for the limits that count per client: the socket's peer, or, when
 * that peer is a proxy the operator named with `--trust-proxy`, the address the proxy put last in
 * `X-Forwarded-For`. Nothing a client sends is believed unless it came through such a proxy.
 * IPv6 clients are counted per /64, the block one subscriber usually holds.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';

/** Whether the peer at this address is a proxy whose `X-Forwarded-For` is believed. */
export type TrustProxy = (peer: string) => boolean;

export const TRUST_NO_PROXY: TrustProxy = () => false;

/** `::ffff:127.0.0.1` is 127.0.0.1: Node gives IPv4 peers of a dual-stack socket that way. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * Proxies to trust, each an address or a block (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`); throws
 * with words a person understands on anything else.
 */
export function parseTrustProxy(entries: readonly string[]): TrustProxy {
  if (entries.length === 0) return TRUST_NO_PROXY;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.trim().split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      rest.length > 0 ||
      (bits !== undefined && (!Number.isInteger(bits) || bits < 0 || bits > maxBits || prefix === ''))
    ) {
      throw new Error(`--trust-proxy takes addresses or blocks such as 127.0.0.1 or 10.0.0.0/8, not "${entry}".`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return (peer) => {
    const address = plainAddress(peer);
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The key a client's limits are counted under: an IPv4 address, or an IPv6 address's /64. */
export function clientKey(address: string): string {
  const plain = plainAddress(address);
  if (isIP(plain) !== 6) return plain;
  const groups = expandIpv6(plain);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : plain;
}

function expandIpv6(address: string): string[] | null {
  const [head = '', tail, ...more] = address.split('%')[0]?.split('::') ?? [];
  if (more.length > 0) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An IPv4 tail (::1.2.3.4) takes two groups; only the first four groups matter here.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const fill = tail === undefined ? 0 : 8 - width(left) - width(right);
  if (fill < 0) return null;
  return [...left, ...Array<string>(fill).fill('0'), ...right].map((group) =>
    group.includes('.') ? group : (Number.parseInt(group || '0', 16) || 0).toString(16),
  );
}

/** The address a request's limits are counted against, as `clientKey` gives it. */
export function requestClient(c: Context, trustProxy: TrustProxy): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return clientOf(incoming?.socket?.remoteAddress, incoming?.headers['x-forwarded-for'], trustProxy);
}

/**
 * The client behind a peer: the peer itself, or, for a trusted proxy, the last address in
 * `X-Forwarded-For` that is not itself a trusted proxy (a client may send its own header, which
 * the proxy appends to, so only what trusted proxies added counts).
 */
export function clientOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: TrustProxy,
): string {
  const direct = peer ? plainAddress(peer) : 'unknown';
  if (!peer || !trustProxy(direct) || forwardedFor === undefined) return clientKey(direct);
  const hops = [forwardedFor]
    .flat()
    .join(',')
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index] as string;
    if (!trustProxy(hop)) return clientKey(hop);
  }
  return clientKey(hops[0] ?? direct);
}
