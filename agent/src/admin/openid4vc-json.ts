import type {
  OpenId4VcIssuanceSessionRecord,
  OpenId4VcIssuerRecord,
  OpenId4VcVerificationSessionRecord,
  OpenId4VcVerifierRecord,
} from '@credo-ts/openid4vc'
import type {
  CredentialOfferJson,
  CredentialTemplateJson,
  DisclosedCredentialJson,
  OpenId4VcIssuerJson,
  PresentationSessionJson,
  TrustAnchorJson,
  VerificationTemplateJson,
  VerifierJson,
  X509CertificateJson,
} from '@idplane/common/agent-contract/openid4vc-api'

import type { CredentialTemplateRecord } from '../openid4vc/issuer/credential-template.record'
import type { VerificationTemplateRecord } from '../openid4vc/verifier/verification-template.record'
import type { X509CertificateRecord } from '../openid4vc/x509/x509-certificate.record'
import type { X509TrustAnchorRecord } from '../openid4vc/x509/x509-trust-anchor.record'

/*
 * The OpenID4VC records as the admin API answers them (common/agent-contract/openid4vc-api.ts): plain JSON, dates as
 * ISO 8601, no key ids or codes (the transaction code only in the answer that creates the offer). Type-only imports:
 * this file must not load `@credo-ts/openid4vc`.
 */

const iso = (date: Date | undefined): string | undefined => date?.toISOString()

export function toX509CertificateJson(record: X509CertificateRecord): X509CertificateJson {
  return {
    id: record.id,
    keyType: record.keyType,
    purpose: record.purpose,
    status: record.status,
    certificate: record.certificate,
    chain: record.chain,
    subject: record.subject,
    issuer: record.issuer,
    serialNumber: record.serialNumber,
    notBefore: record.notBefore,
    notAfter: record.notAfter,
    sanDnsNames: record.sanDnsNames,
    sanUriNames: record.sanUriNames,
    issuerCertificateId: record.issuerCertificateId,
    isImported: record.isImported,
    createdAt: record.createdAt.toISOString(),
  }
}

export function toIssuerJson(record: OpenId4VcIssuerRecord, credentialIssuer: string): OpenId4VcIssuerJson {
  return {
    id: record.id,
    issuerId: record.issuerId,
    credentialIssuer,
    display: record.display?.map((entry) => ({
      name: String(entry.name),
      ...(entry.locale ? { locale: entry.locale } : {}),
      ...(entry.logo?.uri ? { logoUri: entry.logo.uri } : {}),
      ...(entry.logo?.alt_text ? { logoAltText: entry.logo.alt_text } : {}),
    })),
    batchSize: record.batchCredentialIssuance?.batchSize ?? 1,
    authorizationServers: (record.authorizationServerConfigs ?? []).map((config) => config.issuer),
    credentialConfigurationIds: Object.keys(record.credentialConfigurationsSupported ?? {}),
    createdAt: record.createdAt.toISOString(),
  }
}

export function toCredentialTemplateJson(record: CredentialTemplateRecord): CredentialTemplateJson {
  return {
    id: record.id,
    issuerId: record.issuerId,
    name: record.name,
    description: record.description,
    format: record.format,
    vct: record.vct,
    doctype: record.doctype,
    types: record.types,
    claims: record.claims,
    signer: record.signer,
    display: record.display as unknown as Record<string, unknown>[] | undefined,
    validityDays: record.validityDays,
    authorization: record.authorization,
    createdAt: record.createdAt.toISOString(),
  }
}

export function toCredentialOfferJson(record: OpenId4VcIssuanceSessionRecord): CredentialOfferJson {
  return {
    id: record.id,
    issuerId: record.issuerId,
    state: record.state,
    credentialConfigurationIds: record.credentialOfferPayload?.credential_configuration_ids ?? [],
    issuedCredentials: record.issuedCredentials,
    isPreAuthorized: record.preAuthorizedCode !== undefined,
    hasTxCode: record.userPin !== undefined,
    errorMessage: record.errorMessage,
    expiresAt: iso(record.expiresAt),
    createdAt: record.createdAt.toISOString(),
    updatedAt: iso(record.updatedAt),
  }
}

export function toVerifierJson(record: OpenId4VcVerifierRecord): VerifierJson {
  return {
    id: record.id,
    verifierId: record.verifierId,
    clientName: record.clientMetadata?.client_name,
    logoUri: record.clientMetadata?.logo_uri,
    createdAt: record.createdAt.toISOString(),
  }
}

export function toVerificationTemplateJson(record: VerificationTemplateRecord): VerificationTemplateJson {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    query: record.query,
    responseMode: record.responseMode,
    signer: record.signer,
    isHaip: record.isHaip,
    createdAt: record.createdAt.toISOString(),
  }
}

export function toPresentationSessionJson(
  record: OpenId4VcVerificationSessionRecord,
  disclosed?: DisclosedCredentialJson[],
): PresentationSessionJson {
  return {
    id: record.id,
    verifierId: record.verifierId,
    state: record.state,
    authorizationRequestUri: record.authorizationRequestUri,
    errorMessage: record.errorMessage,
    ...(disclosed ? { disclosed } : {}),
    expiresAt: iso(record.expiresAt),
    createdAt: record.createdAt.toISOString(),
    updatedAt: iso(record.updatedAt),
  }
}

export function toTrustAnchorJson(record: X509TrustAnchorRecord): TrustAnchorJson {
  return {
    id: record.id,
    certificate: record.certificate,
    fingerprint: record.fingerprint,
    subject: record.subject,
    notBefore: record.notBefore,
    notAfter: record.notAfter,
    ...(record.label === undefined ? {} : { label: record.label }),
    createdAt: record.createdAt.toISOString(),
  }
}
