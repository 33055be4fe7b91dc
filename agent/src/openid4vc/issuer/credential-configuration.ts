import type { CredentialDisplay, CredentialTemplateRecord } from './credential-template.record'

/** Proof-of-possession algorithms the issuer accepts from wallets: the two key types of the platform. */
export const PROOF_SIGNING_ALGORITHMS = ['ES256', 'EdDSA'] as const

/** COSE algorithm identifiers of mdoc signatures the issuer makes (ES256, EdDSA). */
const MDOC_SIGNING_ALGORITHMS = [-7, -8]

type Template = Pick<
  CredentialTemplateRecord,
  'id' | 'format' | 'vct' | 'doctype' | 'types' | 'claims' | 'display' | 'authorization'
>

/**
 * One entry of `credential_configurations_supported` (OID4VCI 1.0 section 12.2.4, format profiles of appendix A) for
 * a template, keyed by the template id by the caller. Holder binding: keys as JWK or did:key/did:jwk for SD-JWT VC,
 * COSE keys for mdoc, DIDs for W3C JWT VCs (their subject id). `scope` (the template id) lets wallets ask for it in
 * the authorization code flow.
 */
export function credentialConfigurationFor(template: Template): Record<string, unknown> {
  const credentialMetadata = {
    ...(template.display && template.display.length > 0 ? { display: template.display.map(toDisplayEntry) } : {}),
    claims: template.claims.map((claim) => ({
      path: claim.path,
      ...(claim.mandatory ? { mandatory: true } : {}),
      ...(claim.display ? { display: claim.display } : {}),
    })),
  }
  const common = {
    scope: template.id,
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: [...PROOF_SIGNING_ALGORITHMS] } },
    credential_metadata: credentialMetadata,
  }
  switch (template.format) {
    case 'dc+sd-jwt':
      return {
        format: 'dc+sd-jwt',
        vct: template.vct,
        cryptographic_binding_methods_supported: ['jwk', 'did:key', 'did:jwk'],
        ...common,
      }
    case 'mso_mdoc':
      return {
        format: 'mso_mdoc',
        doctype: template.doctype,
        cryptographic_binding_methods_supported: ['cose_key'],
        credential_signing_alg_values_supported: MDOC_SIGNING_ALGORITHMS,
        ...common,
      }
    case 'jwt_vc_json':
      return {
        format: 'jwt_vc_json',
        credential_definition: { type: template.types },
        cryptographic_binding_methods_supported: ['did:key', 'did:jwk'],
        ...common,
      }
  }
}

function toDisplayEntry(display: CredentialDisplay): Record<string, unknown> {
  return {
    name: display.name,
    ...(display.locale ? { locale: display.locale } : {}),
    ...(display.description ? { description: display.description } : {}),
    ...(display.backgroundColor ? { background_color: display.backgroundColor } : {}),
    ...(display.textColor ? { text_color: display.textColor } : {}),
    ...(display.logoUri
      ? { logo: { uri: display.logoUri, ...(display.logoAltText ? { alt_text: display.logoAltText } : {}) } }
      : {}),
  }
}
