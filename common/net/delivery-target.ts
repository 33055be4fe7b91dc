import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'

import { InvalidInputError } from '../errors'
import { isPublicAddress } from './ip-address'

export { isPublicAddress } from './ip-address'

/** Resolves a host name to every address it has (a test passes its own). */
export type Resolver = (hostname: string) => Promise<string[]>

export interface TargetOptions {
  /**
   * NETWORK_ALLOW_PRIVATE_TARGETS (API; alias WEBHOOK_ALLOW_PRIVATE_TARGETS) or AGENT_ALLOW_PRIVATE_TARGETS (agents):
   * private, loopback and link-local targets allowed (development, tests, closed networks).
   */
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
    throw new InvalidInputError(
      `Invalid ${field}: host does not resolve`,
      [{ field, message: 'host does not resolve' }],
      {
        cause: error,
      },
    )
  }
  if (addresses.length === 0) throw refused(field, 'host does not resolve')
  if (!options.allowPrivateTargets && addresses.some((address) => !isPublicAddress(address))) {
    throw refused(field, privateMessage())
  }
  return { url, addresses }
}

/**
 * A `lookup` for node:http/net that hands the socket the addresses checkDeliveryTarget checked instead of resolving
 * the name again, so DNS cannot point the connection elsewhere in between (DNS rebinding).
 */
export function pinnedLookup(target: DeliveryTarget): LookupFunction {
  const entries = target.addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }))
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, all: { address: string; family: number }[]) => void)(null, entries)
    else callback(null, entries[0]?.address ?? '', entries[0]?.family ?? 4)
  }
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
  return new InvalidInputError(`Invalid ${field}: ${message}`, [{ field, message }])
}
