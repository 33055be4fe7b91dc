import { isIPv6 } from 'node:net'
import type { Request } from 'express'
import { createParamDecorator, type Action } from 'routing-controllers'

/**
 * The client address rate limits are keyed on. `req.ip` honours API_TRUST_PROXY, which must be on behind an
 * ingress (otherwise every request seems to come from the ingress and per-client limits become global).
 * IPv4-mapped IPv6 addresses become plain IPv4; other IPv6 addresses are reduced to their /64, because one
 * host usually holds a whole /64 and could otherwise rotate addresses to escape the limit.
 */
export function clientAddressOf(req: Pick<Request, 'ip' | 'socket'>): string {
  const raw = (req.ip ?? req.socket.remoteAddress ?? 'unknown').replace(/%.*$/, '')
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(raw)
  if (mapped?.[1]) return mapped[1]
  return isIPv6(raw) ? `${ipv6Groups(raw).slice(0, 4).join(':')}::/64` : raw
}

/** The eight 16-bit groups of an IPv6 address, expanded and lower-cased. */
export function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const missing = 8 - headGroups.length - tailGroups.length
  return [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups].map(
    (group) => group.replace(/^0+(?=.)/, '') || '0',
  )
}

/** Route parameter decorator: the caller's address as clientAddressOf() sees it. */
export function ClientIp() {
  return createParamDecorator({ value: (action: Action) => clientAddressOf(action.request as Request) })
}
