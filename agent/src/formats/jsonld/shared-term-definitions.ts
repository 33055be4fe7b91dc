/**
 * jsonld.js copies an active context whenever a node's type or a property brings a scoped context (the credentials
 * and Ed25519Signature2020 contexts define one for almost every type), and the copy is deep: every term definition
 * of the parent, a few hundred of them, is cloned, per node, per expansion. A term definition is never changed once
 * it is in a context (jsonld.js creates a new definition object to redefine a term, and restores the previous
 * object on a failed redefinition), so the child can hold the parent's definition objects in a map of its own. That
 * is what this copy does; everything else is copied as jsonld.js copies it.
 *
 * Measured on a credential, a presentation and a proof's options canonicalized (docs/benchmarks.md, "JSON-LD:
 * shared term definitions"). The change belongs in jsonld.js itself (lib/context.js, `_cloneActiveContext`).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jsonld.js's context module has no types and no export map
const jsonldContext = require('@digitalcredentials/jsonld/lib/context') as JsonLdContextModule

interface ActiveContext {
  mappings: Map<string, unknown>
  protected: Record<string, boolean>
  inverse: unknown
  previousContext?: ActiveContext
  clone: (this: ActiveContext) => ActiveContext
  getInverse: unknown
  revertToPreviousContext: unknown
  '@base'?: unknown
  '@language'?: unknown
  '@vocab'?: unknown
}

interface JsonLdContextModule {
  getInitialContext(options: { processingMode?: string }): ActiveContext
}

function cloneSharingTermDefinitions(this: ActiveContext): ActiveContext {
  const child: ActiveContext = {
    mappings: new Map(this.mappings),
    clone: this.clone,
    inverse: null,
    getInverse: this.getInverse,
    protected: { ...this.protected },
    revertToPreviousContext: this.revertToPreviousContext,
  }
  if (this.previousContext) child.previousContext = this.previousContext.clone()
  if ('@base' in this) child['@base'] = this['@base']
  if ('@language' in this) child['@language'] = this['@language']
  if ('@vocab' in this) child['@vocab'] = this['@vocab']
  return child
}

/**
 * Makes the initial contexts jsonld.js hands out (cached per processing mode, every active context descends from
 * one and inherits its `clone`) copy by sharing term definitions. Idempotent.
 */
export function shareTermDefinitions(): void {
  for (const processingMode of [undefined, 'json-ld-1.0', 'json-ld-1.1']) {
    jsonldContext.getInitialContext({ processingMode }).clone = cloneSharingTermDefinitions
  }
}
