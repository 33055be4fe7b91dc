import { isIP } from 'node:net'

/** IPv4 ranges no outgoing call may reach: "this network", private, shared (CGNAT), loopback, link-local, ... */
const IPV4_NON_PUBLIC: readonly (readonly [number, number])[] = (
  [
    ['0.0.0.0', 8], // unspecified / this network
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, where cloud metadata services answer
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation (TEST-NET-1)
    ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation (TEST-NET-2)
    ['203.0.113.0', 24], // documentation (TEST-NET-3)
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, and the broadcast address
  ] as const
).map(([base, bits]) => [ipv4ToNumber(base), bits] as const)

/**
 * IPv6 prefixes inside global unicast (2000::/3) that are still not public; each is [groups of the prefix, bits].
 * Everything outside 2000::/3 is refused anyway, except the IPv4-embedding forms decoded first.
 */
const IPV6_NON_PUBLIC: readonly (readonly [readonly number[], number])[] = [
  [[0x2001, 0x0002, 0x0000], 48], // benchmarking
  [[0x2001, 0x0010], 28], // ORCHID (not routable)
  [[0x2001, 0x0020], 28], // ORCHIDv2 (not routable)
  [[0x2001, 0x0db8], 32], // documentation
  [[0x3fff, 0x0000], 20], // documentation (RFC 9637)
]

/**
 * Whether an outgoing call may reach `address`: false for private, loopback, link-local, multicast, unspecified,
 * documentation and reserved IPv4 and IPv6 addresses, and for anything that is not an address. IPv6 forms that
 * carry an IPv4 address are judged by that address (or refused whole where it cannot be known):
 * - IPv4-compatible `::a.b.c.d` (::/96, so `::` and `::1` too) and IPv4-mapped `::ffff:a.b.c.d` (::ffff:0:0/96);
 * - IPv4-translated `::ffff:0:a.b.c.d` (::ffff:0:0:0/96, SIIT);
 * - NAT64 `64:ff9b::a.b.c.d` (64:ff9b::/96); the local-use NAT64 prefix 64:ff9b:1::/48 is refused whole, since
 *   where its IPv4 address sits depends on a prefix length only its network knows;
 * - 6to4 `2002:AABB:CCDD::/48` (2002::/16);
 * - Teredo (2001::/32): the server address and the client's (stored inverted) must both be public.
 * Brackets (`[::1]`) and zone indexes (`fe80::1%eth0`) are accepted and judged by the address.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare)
  if (family === 4) return isPublicIpv4(ipv4ToNumber(bare))
  if (family !== 6) return false
  const groups = ipv6Groups(bare)
  if (!groups) return false
  const embedded = embeddedIpv4(groups)
  if (embedded !== undefined) return embedded.length > 0 && embedded.every(isPublicIpv4)
  if ((groups[0] & 0xe000) !== 0x2000) return false // outside global unicast: ULA, link-local, multicast, reserved
  return !IPV6_NON_PUBLIC.some(([prefix, bits]) => hasPrefix(groups, prefix, bits))
}

/**
 * The IPv4 addresses an IPv6 address carries, as numbers: undefined when it is no IPv4-embedding form, an empty
 * list when it is one whose IPv4 address cannot be known (refused).
 */
function embeddedIpv4(groups: readonly number[]): number[] | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups
  const ipv4 = (high: number, low: number) => high * 0x10000 + low
  const zeroes = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0)
  if (zeroes(0, 5) && (g5 === 0 || g5 === 0xffff)) return [ipv4(g6, g7)] // compatible, mapped
  if (zeroes(0, 4) && g4 === 0xffff && g5 === 0) return [ipv4(g6, g7)] // translated (SIIT)
  if (g0 === 0x64 && g1 === 0xff9b && zeroes(2, 6)) return [ipv4(g6, g7)] // NAT64, well-known prefix
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return [] // NAT64, local-use prefix
  if (g0 === 0x2002) return [ipv4(g1, g2)] // 6to4
  if (g0 === 0x2001 && g1 === 0) return [ipv4(g2, g3), ipv4(g6 ^ 0xffff, g7 ^ 0xffff)] // Teredo: server, client
  return undefined
}

function hasPrefix(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let index = 0; index * 16 < bits; index++) {
    const width = Math.min(16, bits - index * 16)
    const mask = (0xffff << (16 - width)) & 0xffff
    if ((groups[index] & mask) !== ((prefix[index] ?? 0) & mask)) return false
  }
  return true
}

function isPublicIpv4(value: number): boolean {
  return !IPV4_NON_PUBLIC.some(([base, bits]) => value >>> (32 - bits) === base >>> (32 - bits))
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0)
}

/**
 * The eight 16-bit groups of an IPv6 address node:net's isIP accepted: `::` shorthand, a dotted IPv4 tail and a
 * zone index (`%eth0`, dropped) allowed. undefined for anything else.
 */
export function ipv6Groups(address: string): number[] | undefined {
  const zone = address.indexOf('%')
  let text = zone >= 0 ? address.slice(0, zone) : address
  const tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.slice(lastColon + 1).includes('.')) {
    const value = ipv4ToNumber(text.slice(lastColon + 1))
    tail.push(Math.floor(value / 0x10000), value % 0x10000)
    const prefix = text.slice(0, lastColon + 1)
    text = prefix.endsWith('::') ? prefix : prefix.slice(0, -1)
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)))
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const head = parse(halves[0] ?? '')
  const rest = halves.length === 2 ? [...parse(halves[1] ?? ''), ...tail] : tail
  const groups =
    halves.length === 2
      ? [...head, ...Array<number>(8 - head.length - rest.length).fill(0), ...rest]
      : [...head, ...rest]
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined
}
