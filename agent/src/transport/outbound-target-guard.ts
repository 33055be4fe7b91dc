import type { LookupFunction } from 'node:net'

import { checkDeliveryTarget, checkTargetUrl, pinnedLookup, type Resolver } from '@idplane/common/net/delivery-target'

/**
 * The platform's rule for where an agent may connect on someone else's say-so (docs/decisions.md, "Outgoing
 * targets"): invitation URLs it fetches and DIDComm endpoints it sends to must not be private, loopback, link-local
 * or metadata addresses, every address a name resolves to included, unless AGENT_ALLOW_PRIVATE_TARGETS is on
 * (development, tests, closed networks). The same code as the API's webhooks (common/net/delivery-target.ts).
 * The origins the operator configured for the agent itself (the platform it reports to, its own endpoint) are
 * trusted: they may be cluster-internal addresses, and nobody else chose them.
 * One instance per agent process, registered in Credo's dependency manager.
 */
export class OutboundTargetGuard {
  private readonly trustedOrigins: ReadonlySet<string>
  private readonly resolve?: Resolver

  public constructor(
    public readonly allowPrivateTargets: boolean,
    options: {
      /** URLs (or origins) whose origin is the operator's own configuration; checked for form only. */
      trustedOrigins?: readonly (string | undefined)[]
      /** A test's DNS. */
      resolve?: Resolver
    } = {},
  ) {
    this.trustedOrigins = new Set((options.trustedOrigins ?? []).flatMap((url) => (url ? [originOf(url)] : [])))
    this.resolve = options.resolve
  }

  /**
   * Checks `url` right before a connection to it; the answer's `lookup` pins the connection to the checked
   * addresses (DNS cannot move it in between). With private targets allowed only the URL's form is checked.
   * @throws InvalidInputError naming `field`, with the reason
   */
  public async check(url: string, field: string): Promise<{ url: URL; lookup?: LookupFunction }> {
    if (this.allowPrivateTargets || this.isTrusted(url)) {
      return { url: checkTargetUrl(url, { allowPrivateTargets: true, field }) }
    }
    const target = await checkDeliveryTarget(url, { allowPrivateTargets: false, field, resolve: this.resolve })
    return { url: target.url, lookup: pinnedLookup(target) }
  }

  private isTrusted(url: string): boolean {
    return this.trustedOrigins.size > 0 && this.trustedOrigins.has(originOf(url))
  }
}

/** The URL's origin; '' (trusted by nobody) when it does not parse or has none (`null`). */
function originOf(url: string): string {
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? '' : origin
  } catch {
    return ''
  }
}
