import {
  type AgentContext,
  DidDocument,
  type DidResolutionResult,
  type DidResolver,
  JsonTransformer,
} from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

import { cloneInstance } from '../credo/clone-instance'
import { DID_INDY_PATTERN, DID_SOV_PATTERN } from './indy-dids'
import { type LedgerClient, LedgerHttpError, LedgerNotConfiguredError } from './ledger-client'

/** @default 60 s: a NYM's verkey never changes here, but a later ATTRIB may move the endpoint */
export const DEFAULT_DID_CACHE_TTL_MS = 60_000
const MAX_CACHED_DOCUMENTS = 1000

/**
 * Resolves `did:indy:<namespace>:<id>` and `did:sov:<id>` through the platform ledger (`GET /v1/ledger/dids/:did`).
 * Documents are kept for a minute (bounded): DIDComm resolves the other party's DID for every message it sends.
 * The agent's own DIDs resolve from their DidRecord (allowsLocalDidRecord), without a request.
 */
export class LedgerDidResolver implements DidResolver {
  public readonly supportedMethods = ['indy', 'sov']
  // Our own cache (below); Credo's would store every resolution in the agent's storage.
  public readonly allowsCaching = false
  public readonly allowsLocalDidRecord = true
  private readonly cache = new BoundedMap<string, { document: DidDocument; expiresAt: number }>(MAX_CACHED_DOCUMENTS)

  public constructor(
    private readonly ledger: LedgerClient,
    private readonly ttlMs = DEFAULT_DID_CACHE_TTL_MS,
  ) {}

  public async resolve(_agentContext: AgentContext, did: string): Promise<DidResolutionResult> {
    const indy = DID_INDY_PATTERN.exec(did)
    if (!indy && !DID_SOV_PATTERN.test(did)) return failure('invalidDid', `${did} is not a did:indy or did:sov DID`)
    const kept = this.cache.get(did)
    if (kept && kept.expiresAt > Date.now()) return success(cloneInstance(kept.document))
    try {
      if (indy) {
        const namespace = await this.ledger.getNamespace()
        if (indy[1] !== namespace)
          return failure('notFound', `${did} is not on this platform's ledger (namespace ${namespace})`)
      }
      const answer = await this.ledger.getDid(did)
      const document = JsonTransformer.fromJSON(answer.didDocument, DidDocument)
      if (document.id !== did) return failure('invalidDidDocument', `The ledger answered ${did} with ${document.id}`)
      this.cache.set(did, { document: cloneInstance(document), expiresAt: Date.now() + this.ttlMs })
      return success(document, answer.didDocumentMetadata)
    } catch (error) {
      if (error instanceof LedgerHttpError && error.status === 404) return failure('notFound', error.message)
      if (error instanceof LedgerHttpError && error.status === 400) return failure('invalidDid', error.message)
      if (error instanceof LedgerNotConfiguredError) return failure('unsupportedDidMethod', error.message)
      return failure('unknownError', error instanceof Error ? error.message : String(error))
    }
  }
}

function success(didDocument: DidDocument, metadata: Record<string, unknown> = {}): DidResolutionResult {
  return {
    didDocument,
    didDocumentMetadata: metadata,
    didResolutionMetadata: { contentType: 'application/did+ld+json' },
  }
}

function failure(error: string, message: string): DidResolutionResult {
  return { didDocument: null, didDocumentMetadata: {}, didResolutionMetadata: { error, message } }
}
