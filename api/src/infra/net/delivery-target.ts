import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { InvalidInputError } from '@idplane/common'

/** Resolves a host name to every address it has (a test passes its own). */
export type Resolver = (hostname: string) => Promise<string[]>

export interface TargetOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: private, loopback and link-local targets allowed (tests, closed networks). */
  readonly allowPrivateTargets: boolean
  /** The field named in the 400. @default 'url' */
  readonly field?: string
}

export interface DeliveryTarget {
  readonly url: URL
  /** The checked addresses: connect to one of these, not to the name again (it could resolve elsewhere by then). */
  readonly addresses: string[]
}

/** Names that are loopback or a cloud metadata service whatever DNS says. */
const INTERNAL_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data'])

/** IPv4 ranges no outgoing call may reach: "this network", private, shared (CGNAT), loopback, link-local, ... */
const IPV4_NON_PUBLIC: [number, number][] = [
  ['0.0.0.0', 8], // unspecified / this network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
].map(([base, bits]) => [ipv4ToNumber(String(base)), Number(bits)])

/**
 * A static check of an outgoing target URL, before it is stored: http(s), no credentials in it, and (unless
 * private targets are allowed) not a literal private, loopback, link-local, multicast or unspecified address nor
 * a name that always means this machine or a metadata service. Names are resolved at delivery time
 * (checkDeliveryTarget), since DNS may change in between.
 * @throws InvalidInputError naming `options.field`
 */
export function checkTargetUrl(value: string, options: TargetOptions): URL {
  const field = options.field ?? 'url'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw refused(field, 'must be an absolute http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(field, 'must be an absolute http(s) URL')
  if (url.username !== '' || url.password !== '') throw refused(field, 'must not contain credentials (user:pass@)')
  if (options.allowPrivateTargets) return url
  const host = bareHost(url)
  const isInternal = isIP(host) !== 0 ? !isPublicAddress(host) : isInternalName(host)
  if (isInternal) throw refused(field, privateMessage())
  return url
}

/**
 * The check to run right before each delivery: checkTargetUrl, then every address the name resolves to must be
 * public (one private answer is enough to refuse: a resolver may rotate through them).
 * @throws InvalidInputError naming `options.field`
 */
export async function checkDeliveryTarget(
  value: string,
  options: TargetOptions & { readonly resolve?: Resolver },
): Promise<DeliveryTarget> {
  const field = options.field ?? 'url'
  const url = checkTargetUrl(value, options)
  const host = bareHost(url)
  if (isIP(host) !== 0) return { url, addresses: [host] }
  let addresses: string[]
  try {
    addresses = await (options.resolve ?? resolveAll)(host)
  } catch (error) {
    throw new InvalidInputError(`The ${field} host does not resolve`, [{ field, message: 'host does not resolve' }], {
      cause: error,
    })
  }
  if (addresses.length === 0) throw refused(field, 'host does not resolve')
  if (!options.allowPrivateTargets && addresses.some((address) => !isPublicAddress(address))) {
    throw refused(field, privateMessage())
  }
  return { url, addresses }
}

/**
 * Whether an outgoing call may reach `address`: false for private, loopback, link-local, multicast, unspecified
 * and reserved IPv4 and IPv6 addresses, including IPv4 ones written as IPv6 (mapped `::ffff:a.b.c.d`,
 * compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`); false for anything that is not an address.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return isPublicIpv4(ipv4ToNumber(address))
  if (family !== 6) return false
  const groups = ipv6Groups(address)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups
  const embedded = (high: number, low: number) => isPublicIpv4(high * 0x10000 + low)
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0 || g5 === 0xffff)) {
    return embedded(g6, g7) // compatible (includes :: and ::1) or mapped
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7)
  if (g0 === 0x2002) return embedded(g1, g2)
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return false // link-local, old site-local
  if ((g0 & 0xfe00) === 0xfc00) return false // unique local
  if ((g0 & 0xff00) === 0xff00) return false // multicast
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return false // discard prefix
  return true
}

function isPublicIpv4(value: number): boolean {
  return !IPV4_NON_PUBLIC.some(([base, bits]) => value >>> (32 - bits) === base >>> (32 - bits))
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0)
}

/** The eight 16-bit groups of an IPv6 address (the URL parser writes it canonically first: no dotted tail). */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head = '', tail] = canonical.split('::')
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)))
  if (tail === undefined) return parse(head)
  const left = parse(head)
  const right = parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase()
}

function isInternalName(host: string): boolean {
  return INTERNAL_NAMES.has(host) || host.endsWith('.localhost')
}

async function resolveAll(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)
}

function privateMessage(): string {
  return 'must not point at a private, loopback, link-local or metadata address'
}

function refused(field: string, message: string): InvalidInputError {
  return new InvalidInputError(`Invalid ${field}`, [{ field, message }])
}
