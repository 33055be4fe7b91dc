import { ClaimFormat, type VerifiablePresentation, X509Certificate } from '@credo-ts/core'

/** What one verified presentation disclosed, for the session record and the webhook. */
export interface DisclosedCredential {
  /** The DCQL credential query id or the PE input descriptor id it answers. */
  queryId: string
  format: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json' | 'ldp_vc' | 'other'
  /** `iss` of an SD-JWT VC, the issuer of a W3C credential; absent for mdoc (signed by x509 only). */
  issuer?: string
  /** The subject of the certificate that signed it (mdoc, SD-JWT VC with x5c), already checked against a trust anchor. */
  issuerCertificateSubject?: string
  /** SD-JWT VC: `vct`; mdoc: `docType`; W3C: the types. */
  type?: string | string[]
  /** SD-JWT VC: the disclosed claims (registered JWT claims and `cnf` left out); mdoc: namespaces of elements. */
  claims: Record<string, unknown>
}

/** JWT claims an SD-JWT VC carries beside the subject's claims. */
const SD_JWT_ENVELOPE = new Set(['iss', 'iat', 'nbf', 'exp', 'cnf', 'vct', 'vct#integrity', 'status', 'sub', '_sd_alg'])

/** The disclosed content of verified presentations, keyed by the query they answer. */
export function disclosedCredentials(presentations: Record<string, VerifiablePresentation[]>): DisclosedCredential[] {
  const out: DisclosedCredential[] = []
  for (const [queryId, list] of Object.entries(presentations)) {
    for (const presentation of list) out.push(...describe(queryId, presentation))
  }
  return out
}

function describe(queryId: string, presentation: VerifiablePresentation): DisclosedCredential[] {
  switch (presentation.claimFormat) {
    case ClaimFormat.SdJwtDc: {
      const claims: Record<string, unknown> = {}
      for (const [name, value] of Object.entries(presentation.prettyClaims))
        if (!SD_JWT_ENVELOPE.has(name)) claims[name] = value
      const sub = presentation.prettyClaims.sub
      const x5c = presentation.header.x5c
      return [
        {
          queryId,
          format: 'dc+sd-jwt',
          issuer: typeof presentation.payload.iss === 'string' ? presentation.payload.iss : undefined,
          ...(Array.isArray(x5c) && typeof x5c[0] === 'string'
            ? { issuerCertificateSubject: X509Certificate.fromEncodedCertificate(x5c[0]).subject }
            : {}),
          type: String(presentation.payload.vct),
          claims: sub === undefined ? claims : { sub, ...claims },
        },
      ]
    }
    case ClaimFormat.MsoMdoc:
      return presentation.documents.map((document) => ({
        queryId,
        format: 'mso_mdoc' as const,
        issuerCertificateSubject: X509Certificate.fromRawCertificate(document.signingCertificate).subject,
        type: document.docType,
        claims: document.issuerSignedNamespaces,
      }))
    case ClaimFormat.JwtVp:
    case ClaimFormat.LdpVp: {
      const format = presentation.claimFormat === ClaimFormat.JwtVp ? 'jwt_vc_json' : 'ldp_vc'
      const credentials = Array.isArray(presentation.verifiableCredential)
        ? presentation.verifiableCredential
        : [presentation.verifiableCredential]
      return credentials.map((credential) => {
        const json = credential.jsonCredential
        const subject = Array.isArray(json.credentialSubject) ? json.credentialSubject[0] : json.credentialSubject
        return {
          queryId,
          format,
          issuer: credential.issuerId,
          type: credential.type,
          claims: (subject ?? {}) as Record<string, unknown>,
        }
      })
    }
    default:
      return [{ queryId, format: 'other', claims: {} }]
  }
}
