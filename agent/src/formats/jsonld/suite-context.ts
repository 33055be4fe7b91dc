export const ED25519_2020_CONTEXT_URL = 'https://w3id.org/security/suites/ed25519-2020/v1'

/**
 * Returns the credential with the context its proof type needs. The 2020 suite's terms are not in the
 * credentials v1 context; the issuer must offer the credential with them, because the holder checks that the
 * issued credential (proof removed) equals what it requested.
 */
export function withSuiteContext<T extends { '@context'?: unknown }>(credential: T, proofType: string): T {
  if (proofType !== 'Ed25519Signature2020') return credential
  const context = credential['@context']
  const contexts: unknown[] = Array.isArray(context) ? context : context === undefined ? [] : [context]
  if (contexts.includes(ED25519_2020_CONTEXT_URL)) return credential
  return { ...credential, '@context': [...contexts, ED25519_2020_CONTEXT_URL] }
}
