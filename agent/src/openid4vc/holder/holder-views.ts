import {
  ClaimFormat,
  type DcqlValidCredential,
  MdocRecord,
  SdJwtVcRecord,
  type W3cCredentialRecord,
  X509Certificate,
} from '@credo-ts/core'
import {
  type OpenId4VciResolvedCredentialOffer,
  type OpenId4VpResolvedAuthorizationRequest,
  preAuthorizedCodeGrantIdentifier,
} from '@credo-ts/openid4vc'

/*
 * What the holder shows of offers, held credentials and authorization requests: plain views of Credo's resolved
 * objects and records (pure), so that a wallet's user can decide before accepting or disclosing.
 */

/** A claim an offered credential configuration declares (OID4VCI 1.0 `credential_metadata.claims`). */
export interface OfferedClaim {
  path: (string | number | null)[]
  mandatory?: boolean
  name?: string
}

export interface OfferSummary {
  credentialIssuer: string
  issuerName?: string
  credentials: {
    configurationId: string
    format: string
    name?: string
    /** vct (SD-JWT VC), doctype (mdoc) or the W3C types, as the issuer's metadata declares them. */
    type?: string | string[]
    /** The claims the issuer declares for it (the values arrive with the credential). */
    claims: OfferedClaim[]
  }[]
  /** The pre-authorized flow; otherwise the wallet must be authorized by the issuer's authorization server. */
  isPreAuthorized: boolean
  /** The offer wants a transaction code (sent to the holder out of band). */
  txCode?: { length?: number; inputMode?: string; description?: string }
}

export interface HeldCredential {
  id: string
  format: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json' | 'ldp_vc'
  /** vct, docType, or the W3C types. */
  type: string | string[]
  /** `iss` of an SD-JWT VC, the issuer of a W3C credential; absent when the credential names its issuer by certificate only. */
  issuer?: string
  /** The subject of the certificate that signed it (mdoc, SD-JWT VC with x5c). */
  issuerCertificateSubject?: string
  /** Issued copies kept for one-time use (batch issuance). */
  instances: number
  claims: Record<string, unknown>
  createdAt: string
}

/** One claim a DCQL credential query asks for. */
export interface RequestedClaim {
  id?: string
  path: (string | number | null)[]
  /** The values the verifier accepts, when it restricts them. */
  values?: unknown[]
}

export interface RequestSummary {
  verifier: { clientId: string; clientIdPrefix: string }
  responseMode?: string
  queries: {
    id: string
    /** The credential format asked for (DCQL; absent for Presentation Exchange input descriptors). */
    format?: string
    /** vct_values, doctype_value or type_values of the query's `meta`. */
    type?: string | string[]
    /** The claims asked for (DCQL); absent when the query asks for none in particular. */
    claims?: RequestedClaim[]
    /** DCQL `claim_sets`: the combinations of claim ids that satisfy the query, the verifier's preference first. */
    claimSets?: string[][]
    /** Whether the request is answered without this query (false for an option of a credential set). */
    isRequired: boolean
    /** Candidate credentials of the wallet for this query (empty when it cannot be answered). */
    candidates: { credentialId: string; format: string; requestedClaims: unknown }[]
  }[]
  /** The wallet holds what every required part of the request asks for. */
  canBeSatisfied: boolean
}

export function summarizeOffer(resolved: OpenId4VciResolvedCredentialOffer): OfferSummary {
  const grant = resolved.credentialOfferPayload.grants?.[preAuthorizedCodeGrantIdentifier]
  const issuerMetadata = resolved.metadata.credentialIssuer
  return {
    credentialIssuer: issuerMetadata.credential_issuer,
    issuerName: issuerMetadata.display?.[0]?.name,
    credentials: Object.entries(resolved.offeredCredentialConfigurations).map(([configurationId, configuration]) => ({
      configurationId,
      format: configuration.format,
      name: displayNameOf(configuration),
      ...typeOfConfiguration(configuration),
      claims: offeredClaimsOf(configuration),
    })),
    isPreAuthorized: grant !== undefined,
    ...(grant?.tx_code
      ? {
          txCode: {
            length: grant.tx_code.length,
            inputMode: grant.tx_code.input_mode,
            description: grant.tx_code.description,
          },
        }
      : {}),
  }
}

function displayNameOf(configuration: object): string | undefined {
  const metadata = (configuration as { credential_metadata?: { display?: { name?: string }[] } }).credential_metadata
  return metadata?.display?.[0]?.name
}

export function typeOfConfiguration(configuration: object): { type?: string | string[] } {
  const { vct, doctype, credential_definition } = configuration as {
    vct?: unknown
    doctype?: unknown
    credential_definition?: { type?: unknown }
  }
  if (typeof vct === 'string') return { type: vct }
  if (typeof doctype === 'string') return { type: doctype }
  if (Array.isArray(credential_definition?.type)) return { type: credential_definition.type.map(String) }
  return {}
}

export function offeredClaimsOf(configuration: object): OfferedClaim[] {
  const metadata = (configuration as { credential_metadata?: { claims?: unknown } }).credential_metadata
  if (!Array.isArray(metadata?.claims)) return []
  return (metadata.claims as { path?: unknown; mandatory?: unknown; display?: { name?: unknown }[] }[])
    .filter((claim) => Array.isArray(claim.path))
    .map((claim) => ({
      path: claim.path as OfferedClaim['path'],
      ...(typeof claim.mandatory === 'boolean' ? { mandatory: claim.mandatory } : {}),
      ...(typeof claim.display?.[0]?.name === 'string' ? { name: claim.display[0].name } : {}),
    }))
}

export interface DcqlCredentialQuery {
  id: string
  format: string
  meta?: { vct_values?: string[]; doctype_value?: string; type_values?: string[][] }
  claims?: { id?: string; path: (string | number | null)[]; values?: unknown[] }[]
  claim_sets?: string[][]
}

/** What one DCQL credential query asks for, in the summary's words. */
export function describeQuery(
  query: DcqlCredentialQuery,
  credentialSets: { options: string[][]; required?: boolean }[],
) {
  const { meta } = query
  const type = meta?.vct_values ?? meta?.doctype_value ?? meta?.type_values?.flat()
  return {
    id: query.id,
    format: query.format,
    ...(type === undefined ? {} : { type }),
    ...(query.claims
      ? {
          claims: query.claims.map((claim) => ({
            ...(claim.id === undefined ? {} : { id: claim.id }),
            path: claim.path,
            ...(claim.values === undefined ? {} : { values: claim.values }),
          })),
        }
      : {}),
    ...(query.claim_sets ? { claimSets: query.claim_sets } : {}),
    // DCQL: without credential sets every query is required; with them, a query is required when every option of a
    // required set names it (`required` defaults to true).
    isRequired:
      credentialSets.length === 0 ||
      credentialSets.some((set) => set.required !== false && set.options.every((option) => option.includes(query.id))),
  }
}

export function summarizeRequest(resolved: OpenId4VpResolvedAuthorizationRequest): RequestSummary {
  const payload = resolved.authorizationRequestPayload as { response_mode?: string }
  const verifier = {
    clientId: String(resolved.verifier.effectiveClientId),
    clientIdPrefix: String(resolved.verifier.clientIdPrefix),
  }
  if (resolved.dcql) {
    const result = resolved.dcql.queryResult
    return {
      verifier,
      responseMode: payload.response_mode,
      canBeSatisfied: result.can_be_satisfied,
      queries: result.credentials.map((query) => {
        const match = result.credential_matches[query.id]
        return {
          ...describeQuery(query as DcqlCredentialQuery, result.credential_sets ?? []),
          candidates: match?.success
            ? (match.valid_credentials as DcqlValidCredential[]).map((candidate) => ({
                credentialId: candidate.record.id,
                format: query.format,
                requestedClaims: candidate.claims.valid_claim_sets[0]?.output,
              }))
            : [],
        }
      }),
    }
  }
  const pex = resolved.presentationExchange
  return {
    verifier,
    responseMode: payload.response_mode,
    canBeSatisfied: pex?.credentialsForRequest.areRequirementsSatisfied ?? false,
    queries: (pex?.credentialsForRequest.requirements ?? []).flatMap((requirement) =>
      requirement.submissionEntry.map((entry) => ({
        id: entry.inputDescriptorId,
        // `pick`: the holder chooses `needsCount` of the entries, none of them required on its own.
        isRequired: requirement.rule === 'all',
        candidates: entry.verifiableCredentials.map((candidate) => ({
          credentialId: candidate.credentialRecord.id,
          format: candidate.claimFormat,
          requestedClaims: undefined,
        })),
      })),
    ),
  }
}

export function describeRecord(record: SdJwtVcRecord | MdocRecord | W3cCredentialRecord): HeldCredential {
  if (record instanceof SdJwtVcRecord) {
    const credential = record.firstCredential
    const x5c = credential.header.x5c
    return {
      id: record.id,
      format: 'dc+sd-jwt',
      type: String(credential.payload.vct),
      ...(typeof credential.payload.iss === 'string' ? { issuer: credential.payload.iss } : {}),
      ...(Array.isArray(x5c) && typeof x5c[0] === 'string'
        ? { issuerCertificateSubject: X509Certificate.fromEncodedCertificate(x5c[0]).subject }
        : {}),
      instances: record.credentialInstances.length,
      claims: credential.prettyClaims as Record<string, unknown>,
      createdAt: record.createdAt.toISOString(),
    }
  }
  if (record instanceof MdocRecord) {
    const credential = record.firstCredential
    return {
      id: record.id,
      format: 'mso_mdoc',
      type: credential.docType,
      issuerCertificateSubject: X509Certificate.fromRawCertificate(credential.signingCertificate).subject,
      instances: record.credentialInstances.length,
      claims: credential.issuerSignedNamespaces,
      createdAt: record.createdAt.toISOString(),
    }
  }
  const credential = record.firstCredential
  const json = credential.jsonCredential as { type?: string[]; credentialSubject?: Record<string, unknown> }
  return {
    id: record.id,
    format: credential.claimFormat === ClaimFormat.JwtVc ? 'jwt_vc_json' : 'ldp_vc',
    type: json.type ?? [],
    issuer: credential.issuerId,
    instances: record.credentialInstances.length,
    claims: json.credentialSubject ?? {},
    createdAt: record.createdAt.toISOString(),
  }
}
