import { createHash } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'

import { BoundedMap } from '@idplane/common'

/**
 * jsonld.js keeps each processed context per (active context object, context), in a cache keyed by the active
 * context's identity. Most active contexts are new objects: a type-scoped context (the credentials context and the
 * Ed25519Signature2020 context bring one for nearly every type) is applied to a fresh copy of the active context
 * each time, so it is never found and is processed again, per node, per document, with every scoped context inside it
 * processed once more to validate it. This cache keys an active context by how it was made instead: the initial
 * context (by identity), a processed one by the context it came from and the context applied, a copy by what it was
 * copied from and its previous context. Two active contexts with one key hold the same definitions, so a processed
 * context found by key is the one jsonld.js would have computed.
 *
 * One input besides the two contexts changes the result: `overrideProtected` (true for a property-scoped context),
 * which jsonld.js's own cache does not key. It only matters where the applied context redefines a term that the
 * active context protects: without it the definition must be equal and stays protected, with it the new one applies
 * as given. A result is kept only when every such term came out equal to its old definition and protected, so that
 * both settings give it and neither throws. Any other result is not kept at all: jsonld.js would keep it, and then
 * the same context inlined in a document, where redefining a protected term is an error, is answered from its cache
 * without the error once a property-scoped use came first (`processed-contexts.test.ts` shows it).
 *
 * Measured in `bench:jsonld` (docs/benchmarks.md, "The agent against stock Credo, third session"). The change
 * belongs in jsonld.js itself (lib/ResolvedContext.js and lib/context.js).
 */

interface ActiveContext {
  mappings: Map<string, TermDefinition | undefined>
  previousContext?: ActiveContext
  clone: (this: ActiveContext) => ActiveContext
}

interface TermDefinition {
  protected?: boolean
  [key: string]: unknown
}

interface Processed {
  context: ActiveContext
  events: unknown[]
}

interface ResolvedContext {
  document: unknown
  getProcessed(activeCtx: ActiveContext): unknown
  setProcessed(activeCtx: ActiveContext, processed: unknown): void
}

interface ResolvedContextClass {
  prototype: ResolvedContext
}

interface JsonLdContextModule {
  getInitialContext(options: { processingMode?: string }): ActiveContext
  createTermDefinition(options: { activeCtx: ActiveContext }): void
}

/* eslint-disable @typescript-eslint/no-require-imports -- jsonld.js's modules have no types and no export map */
const ResolvedContextClass = require('@digitalcredentials/jsonld/lib/ResolvedContext') as ResolvedContextClass
const jsonldContext = require('@digitalcredentials/jsonld/lib/context') as JsonLdContextModule
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Processed contexts kept by key, the least recently used dropped first. Each is a map of a few hundred shared term
 * definitions (10-20 KB), so a few megabytes at most; the agent's documents use a few dozen.
 */
const MAX_KEPT = 256

const kept = new BoundedMap<string, unknown>(MAX_KEPT)
const keys = new WeakMap<object, string>()
/** A copy and the active context it was copied from, for a key made when the copy is first looked up. */
const copiedFrom = new WeakMap<ActiveContext, ActiveContext>()
const resolvedIds = new WeakMap<ResolvedContext, number>()
let lastId = 0

function idOf(resolved: ResolvedContext): number {
  let id = resolvedIds.get(resolved)
  if (id === undefined) {
    id = ++lastId
    resolvedIds.set(resolved, id)
  }
  return id
}

/** Keys longer than this are replaced by their digest (a copy's key holds its source's and its previous context's). */
const MAX_KEY_LENGTH = 128

/**
 * An active context's key. A copy is keyed when it is first looked up (jsonld.js sets a copy's previous context right
 * after copying it) by its source and its previous context; a copy being defined is keyed anew by identity at each
 * definition (`createTermDefinition`), and takes its processed result's key once done. Anything else is keyed by
 * identity, a number never given twice.
 */
function keyOf(context: ActiveContext): string {
  let key = keys.get(context)
  if (key !== undefined) return key
  const source = copiedFrom.get(context)
  if (source) {
    key = `c(${keyOf(source)},${context.previousContext ? keyOf(context.previousContext) : '-'})`
    if (key.length > MAX_KEY_LENGTH) key = `h${createHash('sha256').update(key).digest('base64url')}`
  } else {
    key = `#${++lastId}`
  }
  keys.set(context, key)
  return key
}

/** A context whose definitions are changing: keyed by identity from now on, so no copy of it shares a key. */
function rekeyByIdentity(context: ActiveContext): void {
  copiedFrom.delete(context)
  keys.set(context, `#${++lastId}`)
}

function isProcessed(value: unknown): value is Processed {
  const processed = value as Processed
  return typeof processed?.context === 'object' && processed.context !== null && Array.isArray(processed.events)
}

/** Whether applying `document` to `before` gave `after` whatever `overrideProtected` was (see above). */
function isIndependentOfOverride(before: ActiveContext, document: unknown, after: ActiveContext): boolean {
  const local = (document as { '@context'?: unknown } | null)?.['@context'] ?? document
  if (typeof local !== 'object' || local === null) return true
  // An imported context's terms are merged in while processing; not worth following.
  if ('@import' in local) return false
  for (const term of Object.keys(local)) {
    const previous = before.mappings.get(term)
    if (!previous?.protected) continue
    const current = after.mappings.get(term)
    if (current !== previous && !(current?.protected === true && isDeepStrictEqual(previous, current))) return false
  }
  return true
}

let isInstalled = false

/** Installs the cache in jsonld.js's module (shared by every copy of the agent's jsonld operations). Idempotent. */
export function cacheProcessedContexts(): void {
  if (isInstalled) return
  isInstalled = true
  const { getProcessed, setProcessed } = ResolvedContextClass.prototype
  ResolvedContextClass.prototype.getProcessed = function (this: ResolvedContext, activeCtx) {
    return kept.get(`${keyOf(activeCtx)}>${idOf(this)}`) ?? getProcessed.call(this, activeCtx)
  }
  ResolvedContextClass.prototype.setProcessed = function (this: ResolvedContext, activeCtx, processed) {
    // An imported context (`@import` caches its merged document here too) is kept as jsonld.js keeps it.
    if (!isProcessed(processed)) return setProcessed.call(this, activeCtx, processed)
    if (!isIndependentOfOverride(activeCtx, this.document, processed.context)) return
    const key = `${keyOf(activeCtx)}>${idOf(this)}`
    keys.set(processed.context, key)
    kept.set(key, processed)
  }
  const { createTermDefinition } = jsonldContext
  jsonldContext.createTermDefinition = function (this: unknown, options) {
    rekeyByIdentity(options.activeCtx)
    return createTermDefinition.call(this, options)
  }
  // Every active context descends from an initial one and inherits its `clone`; copies are recorded with their source.
  for (const processingMode of [undefined, 'json-ld-1.0', 'json-ld-1.1']) {
    const initial = jsonldContext.getInitialContext({ processingMode })
    const clone = initial.clone
    initial.clone = function (this: ActiveContext): ActiveContext {
      const copy = clone.call(this)
      copiedFrom.set(copy, this)
      return copy
    }
  }
}
