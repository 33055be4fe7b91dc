import { ClaimFormat, DcqlService } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

/** Issuer certificate chains kept, the last ones read: a wallet holds the credentials of a few issuers. */
const KEPT = 256

/** The answer for one chain; `undefined` (a certificate without an authority key identifier) is kept too. */
interface Kept {
  authority: unknown
}

type GetAuthority = (this: DcqlService, credential: unknown) => unknown

let isInstalled = false

/** The issuer's certificate chain of an SD-JWT VC (`x5c`, base64 DER texts); undefined for any other credential. */
function sdJwtChainOf(credential: unknown): string[] | undefined {
  if (typeof credential !== 'object' || credential === null) return undefined
  const { claimFormat, header } = credential as { claimFormat?: unknown; header?: { x5c?: unknown } }
  const chain = header?.x5c
  if (claimFormat !== ClaimFormat.SdJwtDc || !Array.isArray(chain) || chain.length === 0) return undefined
  return chain.every((certificate) => typeof certificate === 'string') ? (chain as string[]) : undefined
}

/**
 * Credo's DCQL query (`DcqlService.getCredentialsForRequest`) describes every held credential of the requested types
 * to the DCQL library, and for an SD-JWT VC signed with a certificate that description names its issuer's authority
 * key identifier, which Credo reads by parsing the certificate (ASN.1, in JavaScript) each time: up to four times per
 * held credential (one per format and type it may match) at every request. That was half of an OpenID4VC holder's CPU
 * in `bench:platform`, growing with the credentials it held. The answer depends only on the chain's texts, so it is
 * kept per chain and each caller gets a copy. Anything else (mdoc, W3C credentials, a chain Credo cannot parse, which
 * throws every time) goes to Credo's method as before. Belongs in Credo (the identifier kept with the parsed
 * credential, or the parsed certificate kept per text).
 */
export function rememberDcqlAuthorities(): void {
  if (isInstalled) return
  const prototype = DcqlService.prototype as unknown as { getAuthorityForCredential?: GetAuthority }
  const getAuthority = prototype.getAuthorityForCredential
  // Checked at start, so a Credo upgrade that renames the method fails loudly instead of quietly losing this.
  if (typeof getAuthority !== 'function')
    throw new Error('DcqlService.getAuthorityForCredential is gone (Credo changed)')
  isInstalled = true
  const kept = new BoundedMap<string, Kept>(KEPT)
  prototype.getAuthorityForCredential = function (this: DcqlService, credential: unknown): unknown {
    const chain = sdJwtChainOf(credential)
    if (!chain) return getAuthority.call(this, credential)
    // A base64 text has no line break, so joined by one the key names the chain and nothing else.
    const { authority } = kept.remembered(chain.join('\n'), () => ({ authority: getAuthority.call(this, credential) }))
    return authority === undefined ? undefined : structuredClone(authority)
  }
}
