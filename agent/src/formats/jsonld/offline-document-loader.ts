import { readFileSync } from 'node:fs'
import path from 'node:path'

import { type AgentContext, type DocumentLoader, isDid, W3cCredentialsModuleConfig } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'
import { contexts as ed25519Signature2020Contexts } from 'ed25519-signature-2020-context'

import { isSelfContainedDid } from '../../credo/caching-did-resolvers'

/** Contexts Credo bundles itself (its defaultContexts table); its loader serves these without a network. */
const CREDO_BUNDLED_CONTEXTS = new Set([
  'https://w3id.org/security/v1',
  'https://w3id.org/security/v2',
  'https://w3id.org/security/suites/x25519-2019/v1',
  'https://w3id.org/security/suites/ed25519-2018/v1',
  'https://w3id.org/security/suites/secp256k1-2019/v1',
  'https://www.w3.org/2018/credentials/v1',
  'https://w3id.org/did/v1',
  'https://www.w3.org/ns/did/v1',
  'https://w3.org/ns/did/v1',
  'https://www.w3.org/ns/odrl.jsonld',
  'http://schema.org/',
  'https://identity.foundation/presentation-exchange/submission/v1',
  'https://purl.imsglobal.org/spec/ob/v3p0/context.json',
  'https://w3c-ccg.github.io/vc-status-rl-2020/contexts/vc-revocation-list-2020/v1.jsonld',
  'https://w3id.org/security/data-integrity/v2',
  'https://identity.foundation/linked-vp/contexts/v1',
])

/** Contexts Credo lacks, bundled from npm packages: the Ed25519Signature2020 suite and the VC examples. */
const EXTRA_CONTEXTS = new Map<string, Record<string, unknown>>([
  ...ed25519Signature2020Contexts,
  [
    'https://www.w3.org/2018/credentials/examples/v1',
    readPackagedContext('@digitalbazaar/credentials-examples-context', 'contexts/credentials-examples-v1.jsonld'),
  ],
])

/** Read as a file: the package's own index requires a sibling package it does not declare. */
function readPackagedContext(packageName: string, file: string): Record<string, unknown> {
  const root = path.dirname(require.resolve(`${packageName}/package.json`))
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>
}

/**
 * jsonld.js's mark for a document that never changes: a context so marked stays resolved under its URL across
 * operations (its shared cache, 100 entries). Unmarked, every expansion, compaction and canonicalization fetched each
 * context from the loader again, walked it for relative URLs and serialized the whole document (JSON.stringify, tens
 * of kilobytes) to find its processed form. Bundled contexts never change; DID documents can, and are not marked.
 */
const STATIC = 'static'

export class ContextNotAvailableOfflineError extends Error {}

type RemoteDocument = Awaited<ReturnType<DocumentLoader>>

/**
 * Loaded documents of DID URLs whose document is derived from the DID alone, by URL. Credo's loader resolves the DID
 * and then frames its document with jsonld.js for every verification method a signature names, the same each time;
 * each caller gets its own copy.
 */
const SELF_CONTAINED_DOCUMENTS_KEPT = 1000
const selfContainedDocuments = new BoundedMap<string, RemoteDocument>(SELF_CONTAINED_DOCUMENTS_KEPT)

/**
 * A JSON-LD document loader that never touches the network: bundled contexts, then DIDs through Credo's
 * resolver. Anything else fails, because a credential whose context we cannot vouch for must not verify
 * by whatever a remote server answers at that moment.
 */
export function offlineDocumentLoader(agentContext: AgentContext): DocumentLoader {
  const credoLoader = new W3cCredentialsModuleConfig().documentLoader(agentContext)
  return async (url: string) => {
    const withoutFragment = url.split('#')[0]
    const extra = EXTRA_CONTEXTS.get(withoutFragment)
    if (extra) return { contextUrl: null, documentUrl: url, document: extra, tag: STATIC }
    if (CREDO_BUNDLED_CONTEXTS.has(withoutFragment)) return { ...(await credoLoader(url)), tag: STATIC }
    if (isDid(url)) {
      if (!isSelfContainedDid(url)) return credoLoader(url)
      let loaded = selfContainedDocuments.get(url)
      if (!loaded) {
        loaded = await credoLoader(url)
        selfContainedDocuments.set(url, loaded)
      }
      return structuredClone(loaded)
    }
    throw new ContextNotAvailableOfflineError(`JSON-LD document ${withoutFragment} is not available offline`)
  }
}

export function offlineContextUrls(): string[] {
  return [...CREDO_BUNDLED_CONTEXTS, ...EXTRA_CONTEXTS.keys()]
}
