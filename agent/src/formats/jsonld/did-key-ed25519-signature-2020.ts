import { Ed25519Signature2020, vcLibraries } from '@credo-ts/core'

const ED25519_2018 = 'Ed25519VerificationKey2018'
const ED25519_2020_CONTEXT = 'https://w3id.org/security/suites/ed25519-2020/v1'

/**
 * Ed25519Signature2020 that also accepts the Ed25519VerificationKey2018 verification methods Credo's
 * did:key resolver produces. Plain Credo 0.6.3 insists on a 2020 key and so cannot verify what ACA-Py issues
 * with did:key (DESIGN.md, pitfalls). The signature bytes and their encoding are the same for both key
 * types; only the key's JSON-LD description differs.
 *
 * It also always adds the 2020 suite context to what it signs. Credo's suite treats the credentials v1 context
 * as sufficient, but that context does not define the 2020 proof terms, so JSON-LD safe mode rejects the
 * signed document (DESIGN.md, pitfalls).
 */
export class DidKeyEd25519Signature2020 extends Ed25519Signature2020 {
  public override async assertVerificationMethod(document: Record<string, unknown>): Promise<void> {
    const types: unknown = vcLibraries.jsonld.getValues(document, 'type')
    if (Array.isArray(types) && types.includes(ED25519_2018)) {
      if (document.revoked !== undefined) throw new Error('The verification method has been revoked.')
      return
    }
    await super.assertVerificationMethod(document)
  }

  public override ensureSuiteContext(options: { document: Record<string, unknown>; addSuiteContext: boolean }): void {
    const context = options.document['@context']
    const contexts = Array.isArray(context) ? context : context === undefined ? [] : [context]
    if (!contexts.includes(ED25519_2020_CONTEXT)) options.document['@context'] = [...contexts, ED25519_2020_CONTEXT]
  }
}
