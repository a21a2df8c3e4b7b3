import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go (contract section 9): loopback, private, link-local, unique-local,
 * metadata and every other non-public address. The check runs twice: on the URL's host when a
 * subscription is made or changed (a literal address or a name such as `localhost`), and on
 * every address a name resolves to when a delivery connects (`lib/webhooks/send.ts`), so a name
 * that resolves, or later rebinds, to an inside address is refused too.
 */

// Two lists: Node matches an IPv4 address against IPv6 rules for its mapped form too, and the
// rules below refuse every IPv6 form of IPv4.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", including 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blockedV4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  // IPv4 inside IPv6 (mapped, NAT64, 6to4, compatible): refused whole rather than decoded, since
  // no public receiver needs these forms and each can carry an inside IPv4 address.
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT), e.g. ::ffff:0:7f00:1
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local, including AWS's IPv6 metadata address fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IPv4 or IPv6 literal) is a public address a delivery may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !blockedV4.check(address, 'ipv4') : !blockedV6.check(address, 'ipv6');
}

/** Names that always mean this machine or its private network, whatever DNS says. */
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home\.arpa)$/i;

/**
 * Why a URL host (as `new URL` gives it: IPv4 normalized, IPv6 in brackets) is not allowed, or
 * `undefined` when it may be subscribed. A name that is not obviously private passes here and is
 * checked again on every address it resolves to at delivery time.
 */
export function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith('[')) {
    return isPublicAddress(hostname.slice(1, -1)) ? undefined : 'names an address that is not public';
  }
  // Every trailing dot goes (`localhost..` is `localhost` to a resolver that forgives it); the URL
  // parser normalizes an IPv4 address only when one dot trails, so what is left is parsed again.
  const stripped = hostname.replace(/\.+$/, '');
  let host: string;
  try {
    host = stripped === hostname ? hostname : new URL(`http://${stripped}/`).hostname;
  } catch {
    return 'names a host that is not public';
  }
  if (isIP(host) !== 0) return isPublicAddress(host) ? undefined : 'names an address that is not public';
  if (host === '' || PRIVATE_NAME.test(host)) return 'names a host that is not public';
  // No DNS name has an empty label; a resolver may drop it and reach whatever the rest names.
  if (host.split('.').includes('')) return 'names a host that is not a DNS name (an empty label)';
  // A single-label name (`intranet`, `db`) resolves through the local search domains only.
  if (!host.includes('.')) return 'names a host that is not public (a name without a domain)';
  return undefined;
}
