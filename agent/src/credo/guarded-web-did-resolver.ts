import {
  type AgentContext,
  DidDocument,
  type DidResolutionResult,
  type DidResolver,
  JsonTransformer,
  type ParsedDid,
} from '@credo-ts/core'

/**
 * did:web resolution over the agent's guarded `fetch` (transport/guarded-fetch.ts), in place of Credo's
 * WebDidResolver, whose library fetches `https://<host>/...` with a fetch of its own: a DID in a presentation or an
 * invitation could make the agent call any https service it can reach, internal ones included. Same URL rule (did:web
 * method specification: the method-specific id's `:` are path separators, `%3A` a port), same answers otherwise; a
 * document whose `id` is not the DID is not returned (Credo's resolver returned it with the error).
 */
export class GuardedWebDidResolver implements DidResolver {
  public readonly supportedMethods = ['web']
  public readonly allowsCaching = true
  public readonly allowsLocalDidRecord = true

  public async resolve(agentContext: AgentContext, did: string, parsed: ParsedDid): Promise<DidResolutionResult> {
    const url = didWebUrl(parsed.id)
    let json: unknown
    try {
      const response = await agentContext.config.agentDependencies.fetch(url, {
        headers: { accept: 'application/did+json, application/json' },
      })
      if (response.status >= 400) throw new Error(`it answered ${response.status}`)
      json = await response.json()
    } catch (error) {
      return notFound(`DID must resolve to a valid https URL containing a JSON document: ${(error as Error).message}`)
    }
    if (typeof json !== 'object' || json === null || (json as { id?: unknown }).id !== did) {
      return notFound('DID document id does not match requested did')
    }
    const document = json as Record<string, unknown>
    // Older documents name their keys `publicKey`.
    if (!document.verificationMethod && document.publicKey) document.verificationMethod = document.publicKey
    try {
      return {
        didDocument: JsonTransformer.fromJSON(document, DidDocument),
        didDocumentMetadata: {},
        didResolutionMetadata: {
          contentType: document['@context'] === undefined ? 'application/did+json' : 'application/did+ld+json',
        },
      }
    } catch (error) {
      return notFound(`the DID document is not valid: ${(error as Error).message}`)
    }
  }
}

/** `example.com` -> https://example.com/.well-known/did.json; `example.com%3A8443:u:alice` -> https://example.com:8443/u/alice/did.json */
export function didWebUrl(methodSpecificId: string): string {
  const parts = methodSpecificId.split(':').map(decodeURIComponent)
  return parts.length > 1 ? `https://${parts.join('/')}/did.json` : `https://${parts[0]}/.well-known/did.json`
}

function notFound(message: string): DidResolutionResult {
  return {
    didDocument: null,
    didDocumentMetadata: {},
    didResolutionMetadata: { error: 'notFound', message: `resolver_error: ${message}` },
  }
}
