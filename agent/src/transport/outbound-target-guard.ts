import type { LookupFunction } from 'node:net'

import { checkDeliveryTarget, checkTargetUrl, pinnedLookup, type Resolver } from '@idplane/common/net/delivery-target'

/**
 * The platform's rule for where an agent may connect on someone else's say-so (docs/decisions.md, "Outgoing
 * targets"): invitation URLs it fetches and DIDComm endpoints it sends to must not be private, loopback, link-local
 * or metadata addresses, every address a name resolves to included, unless AGENT_ALLOW_PRIVATE_TARGETS is on
 * (development, tests, closed networks). The same code as the API's webhooks (common/net/delivery-target.ts).
 * One instance per agent process, registered in Credo's dependency manager.
 */
export class OutboundTargetGuard {
  public constructor(
    public readonly allowPrivateTargets: boolean,
    /** A test's DNS. */
    private readonly resolve?: Resolver,
  ) {}

  /**
   * Checks `url` right before a connection to it; the answer's `lookup` pins the connection to the checked
   * addresses (DNS cannot move it in between). With private targets allowed only the URL's form is checked.
   * @throws InvalidInputError naming `field`, with the reason
   */
  public async check(url: string, field: string): Promise<{ url: URL; lookup?: LookupFunction }> {
    if (this.allowPrivateTargets) return { url: checkTargetUrl(url, { allowPrivateTargets: true, field }) }
    const target = await checkDeliveryTarget(url, { allowPrivateTargets: false, field, resolve: this.resolve })
    return { url: target.url, lookup: pinnedLookup(target) }
  }
}
