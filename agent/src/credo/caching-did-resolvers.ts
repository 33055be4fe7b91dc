import {
  type AgentContext,
  type DidDocument,
  DidRepository,
  type DidResolutionResult,
  KeyDidResolver,
  PeerDidResolver,
} from '@credo-ts/core'

import { BoundedMap } from '@idplane/common'

import { cloneInstance } from './clone-instance'

const DEFAULT_MAX_ENTRIES = 1000

/** `did:peer:0`, `did:peer:2` and long-form `did:peer:4`: the document is derived from the DID string alone. */
const SELF_CONTAINED_PEER_DID = /^did:peer:(?:0|2\.|4z[1-9a-km-zA-HJ-NP-Z]{46}:z)/

/** Whether the DID's document is derived from the DID string alone (`did:key`, the self-contained `did:peer` forms). */
export function isSelfContainedDid(did: string): boolean {
  return did.startsWith('did:key:') || SELF_CONTAINED_PEER_DID.test(did)
}

/** Short-form `did:peer:4` (the hash alone): Credo resolves it through the stored record's long form. */
const SHORT_FORM_PEER_DID_4 = /^did:peer:4z[1-9a-km-zA-HJ-NP-Z]{46}$/

/**
 * Bounded LRU of resolved DID documents. Only for DIDs whose document is a pure function of the DID string, so an
 * entry never goes stale and is valid for every agent context (base wallet and tenants). Each hit is a new copy of
 * the kept document (cloneInstance), so callers never share one.
 */
export class ImmutableDidDocumentCache {
  private readonly entries: BoundedMap<string, DidDocument>

  public constructor(maxEntries = DEFAULT_MAX_ENTRIES) {
    this.entries = new BoundedMap(maxEntries)
  }

  public get size(): number {
    return this.entries.size
  }

  public get(did: string): DidDocument | undefined {
    const kept = this.entries.get(did)
    return kept === undefined ? undefined : cloneInstance(kept)
  }

  /** Keeps a copy: the caller goes on using (and may change) the document it resolved. */
  public set(did: string, didDocument: DidDocument): void {
    this.entries.set(did, cloneInstance(didDocument))
  }
}

async function resolveCached(
  cache: ImmutableDidDocumentCache,
  did: string,
  resolve: () => Promise<DidResolutionResult>,
): Promise<DidResolutionResult> {
  const didDocument = cache.get(did)
  if (didDocument) {
    // The same shape the wrapped resolver returns on success.
    return { didDocument, didDocumentMetadata: {}, didResolutionMetadata: { contentType: 'application/did+ld+json' } }
  }
  const result = await resolve()
  if (result.didDocument && !result.didResolutionMetadata.error) cache.set(did, result.didDocument)
  return result
}

/**
 * Credo's peer DID resolver with a cache for the self-contained forms (0, 2, long-form 4). Resolving a long-form
 * `did:peer:4` decodes a base58 document of several kilobytes (quadratic in its length) and hashes it on every
 * message; the cache skips that. A short-form `did:peer:4` is looked up in the stored records as Credo does, and its
 * long form then resolved through the cache (Credo derives the document from the long form alone). Numalgo 1 depends
 * on stored documents and always goes to Credo, as does anything not found.
 */
export class CachingPeerDidResolver extends PeerDidResolver {
  public constructor(private readonly cache = new ImmutableDidDocumentCache()) {
    super()
  }

  public override async resolve(agentContext: AgentContext, did: string): Promise<DidResolutionResult> {
    if (SHORT_FORM_PEER_DID_4.test(did)) {
      const [record] = await agentContext.dependencyManager.resolve(DidRepository).findAllByDid(agentContext, did)
      const longForm = record?.did
      if (longForm && SELF_CONTAINED_PEER_DID.test(longForm)) {
        return resolveCached(this.cache, longForm, () => super.resolve(agentContext, longForm))
      }
    }
    if (!SELF_CONTAINED_PEER_DID.test(did)) return super.resolve(agentContext, did)
    return resolveCached(this.cache, did, () => super.resolve(agentContext, did))
  }
}

/** Credo's `did:key` resolver with a cache: a `did:key` document is derived from the key in the DID. */
export class CachingKeyDidResolver extends KeyDidResolver {
  public constructor(private readonly cache = new ImmutableDidDocumentCache()) {
    super()
  }

  public override async resolve(agentContext: AgentContext, did: string): Promise<DidResolutionResult> {
    return resolveCached(this.cache, did, () => super.resolve(agentContext, did))
  }
}
