import { isIPv4, isIPv6 } from 'node:net';

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes a function: Fastify itself now refuses
 * bare numbers (they cannot tell a proxy from a client talking to the app directly), which the README
 * says plainly; addresses and CIDRs go to proxy-addr as they are.
 */
export function trustProxyOption(setting: false | number | string[]): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/**
 * The subject per-address limits count against. An IPv4 address is one client; an IPv6 address is
 * grouped by its /64, because one subscriber (a home, a phone, a cloud VM) routinely holds a whole
 * /64 and could otherwise take a fresh limit per address. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is
 * the IPv4 client it names.
 */
export function clientSubject(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, written out ('2001:db8::1' → 2001,0db8,0,…,1). */
function expandIPv6(ip: string): string[] {
  const [address = ''] = ip.split('%'); // a zone index (fe80::1%eth0) is not part of the address
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:… was handled above; 64:ff9b::1.2.3.4) counts as two groups.
  const last = right.at(-1) ?? left.at(-1) ?? '';
  const v4Groups = isIPv4(last) ? 2 : 0;
  const missing = tail === undefined ? 0 : 8 - left.length - right.length - (v4Groups ? 1 : 0);
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
