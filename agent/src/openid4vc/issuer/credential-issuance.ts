import {
  type AgentContext,
  ClaimFormat,
  DidsApi,
  W3cCredential,
  W3cCredentialSubject,
  w3cDate,
  type X509Certificate,
} from '@credo-ts/core'
import type {
  OpenId4VcIssuanceSessionRecord,
  OpenId4VciCredentialRequestToCredentialMapper,
  OpenId4VciSignCredentials,
} from '@credo-ts/openid4vc'
import { InvalidStateError } from '@idplane/common'
import type { CredentialStatusListJson } from '@idplane/common/agent-contract/openid4vc-api'

import { X509CertificatesService } from '../x509/x509-certificates.service'
import { type ClaimValues, checkClaimValues, disclosureFrameFor, isPlainObject } from './claim-values'
import { type CredentialTemplateRecord, CredentialTemplateRepository } from './credential-template.record'
import { type MdocSignOptionsWithStatus } from './mdoc-status'
import { statusOfCopy, storedStatus } from './offer-status'

const DAY_MS = 24 * 60 * 60 * 1000

/** Where an offer keeps the claim values of each template, in the issuance session's `issuanceMetadata`. */
export interface OfferIssuanceMetadata {
  credentials: Record<string, ClaimValues>
  /** dc+sd-jwt and mso_mdoc templates offered with a status: where it is (each copy of a batch its own entry, `copyIdx`). */
  statuses?: Record<string, CredentialStatusListJson>
}

/** The offered claim values of one template, read back from the issuance session. */
export function offeredClaims(session: OpenId4VcIssuanceSessionRecord, templateId: string): ClaimValues {
  const credentials = session.issuanceMetadata?.credentials
  const values = isPlainObject(credentials) ? credentials[templateId] : undefined
  if (!isPlainObject(values)) throw new InvalidStateError('The offer holds no claims for this credential')
  return values
}

/**
 * Credo's credential mapper: when a wallet asks for a credential, the template (the credential configuration id)
 * and the claims stored with the offer say what to sign, one credential per key the wallet proved (batch issuance).
 * SD-JWT VCs get a disclosure for every selectively disclosable claim and are signed with the template's DID or
 * the active issuance certificate; mdocs with the active issuance certificate (and their status in the MSO); W3C JWT VCs with the DID, their
 * subject being the holder's DID.
 */
export const mapCredentialRequest: OpenId4VciCredentialRequestToCredentialMapper = async ({
  agentContext,
  issuanceSession,
  credentialConfigurationId,
  holderBinding,
}) => {
  const template = await agentContext
    .resolve(CredentialTemplateRepository)
    .findById(agentContext, credentialConfigurationId)
  if (!template) throw new InvalidStateError('The credential template of this offer no longer exists')
  // Checked again: the template may have changed since the offer was made.
  const values = checkClaimValues(template, offeredClaims(issuanceSession, template.id))
  const now = new Date()
  const expiresAt = template.validityDays ? new Date(now.getTime() + template.validityDays * DAY_MS) : undefined
  const status = storedStatus(issuanceSession.issuanceMetadata, template.id)
  return signOptionsFor(agentContext, { template, values, now, expiresAt, holderBinding, status })
}

type HolderBinding = Parameters<OpenId4VciCredentialRequestToCredentialMapper>[0]['holderBinding']

async function signOptionsFor(
  agentContext: AgentContext,
  options: {
    template: CredentialTemplateRecord
    values: ClaimValues
    now: Date
    expiresAt?: Date
    holderBinding: HolderBinding
    status?: CredentialStatusListJson
  },
): Promise<OpenId4VciSignCredentials> {
  const { template, values, now, expiresAt, holderBinding, status } = options
  switch (template.format) {
    case 'dc+sd-jwt': {
      const issuer = await sdJwtIssuerFor(agentContext, template, status)
      const disclosureFrame = disclosureFrameFor(template, values)
      return {
        type: 'credentials',
        format: ClaimFormat.SdJwtDc,
        credentials: holderBinding.keys.map((holder, copy) => ({
          payload: {
            ...values,
            vct: String(template.vct),
            iat: seconds(now),
            ...(expiresAt ? { exp: seconds(expiresAt) } : {}),
            // draft-ietf-oauth-status-list 6.1; never selectively disclosable (the verifier must see it).
            ...(status ? { status: { status_list: statusOfCopy(status, copy) } } : {}),
          },
          holder:
            holder.method === 'did'
              ? { method: 'did' as const, didUrl: holder.didUrl }
              : { method: 'jwk' as const, jwk: holder.jwk },
          issuer,
          disclosureFrame,
        })),
      }
    }
    case 'mso_mdoc': {
      const [issuerCertificate] = await issuanceChainOfStatus(agentContext, status)
      const credentials = holderBinding.keys.map(
        (holder, copy): MdocSignOptionsWithStatus => ({
          docType: String(template.doctype),
          namespaces: values as Record<string, Record<string, unknown>>,
          issuerCertificate,
          holderKey: holder.jwk,
          validityInfo: { signed: now, validFrom: now, ...(expiresAt ? { validUntil: expiresAt } : {}) },
          // Put in the MSO by StatusListMdocService.
          ...(status ? { status: { status_list: statusOfCopy(status, copy) } } : {}),
        }),
      )
      return { type: 'credentials', format: ClaimFormat.MsoMdoc, credentials }
    }
    case 'jwt_vc_json': {
      if (holderBinding.bindingMethod !== 'did')
        throw new InvalidStateError('A W3C JWT credential is bound to a DID of the holder')
      const verificationMethod = await assertionMethodOf(agentContext, signerDid(template))
      return {
        type: 'credentials',
        format: ClaimFormat.JwtVc,
        credentials: holderBinding.keys.map((holder) => ({
          verificationMethod,
          credential: new W3cCredential({
            type: template.types ?? ['VerifiableCredential'],
            issuer: signerDid(template),
            issuanceDate: w3cDate(now.getTime()),
            ...(expiresAt ? { expirationDate: w3cDate(expiresAt.getTime()) } : {}),
            credentialSubject: new W3cCredentialSubject({ id: holder.didUrl.split('#')[0], claims: values }),
          }),
        })),
      }
    }
  }
}

/**
 * An offer with a status names the issuance certificate its list belongs to: the credential is signed with it while
 * it is the active one; once another is, the credential would not pass its own status check, so it is refused.
 */
async function sdJwtIssuerFor(
  agentContext: AgentContext,
  template: CredentialTemplateRecord,
  status: CredentialStatusListJson | undefined,
) {
  if (template.signer.method === 'did') {
    return { method: 'did' as const, didUrl: await assertionMethodOf(agentContext, template.signer.did) }
  }
  return { method: 'x5c' as const, x5c: await issuanceChainOfStatus(agentContext, status) }
}

/**
 * The chain to sign a credential with: the active issuance certificate's, which must still be the one the offer's
 * status list belongs to (`certificateId`), since the list is signed by it.
 * @throws InvalidStateError when another certificate is active by now (see issuanceChain for the rest)
 */
async function issuanceChainOfStatus(
  agentContext: AgentContext,
  status: CredentialStatusListJson | undefined,
): Promise<[X509Certificate, ...X509Certificate[]]> {
  const certificateId = status?.certificateId
  if (certificateId) {
    const active = await agentContext.resolve(X509CertificatesService).activeFor(agentContext, 'issuance')
    if (active.id !== certificateId)
      throw new InvalidStateError(
        'The issuance certificate changed since this offer was made, and its status list belongs to the earlier one: make the offer again',
      )
  }
  return issuanceChain(agentContext, certificateId)
}

/**
 * The chain of the issuance certificate `certificateId` (active or not: a status list keeps its certificate after a
 * rotation), or of the active one; leaf first (its key in the KMS).
 * @throws NotFoundError for an unknown certificate; InvalidStateError for none active, one not for issuance, or expired
 */
export async function issuanceChain(
  agentContext: AgentContext,
  certificateId?: string,
): Promise<[X509Certificate, ...X509Certificate[]]> {
  const certificates = agentContext.resolve(X509CertificatesService)
  const record = certificateId
    ? await certificates.get(agentContext, certificateId)
    : await certificates.activeFor(agentContext, 'issuance')
  if (record.purpose !== 'issuance') throw new InvalidStateError('This certificate is not for issuance')
  if (new Date(record.notAfter).getTime() <= Date.now())
    throw new InvalidStateError(`The ${certificateId ? '' : 'active '}issuance certificate has expired`)
  const [leaf, ...rest] = certificates.signingChain(record)
  return [leaf, ...rest]
}

function signerDid(template: CredentialTemplateRecord): string {
  if (template.signer.method !== 'did') throw new InvalidStateError('This template is not signed with a DID')
  return template.signer.did
}

/** The first assertion method of one of the organization's DIDs (its key is in the KMS). */
export async function assertionMethodOf(agentContext: AgentContext, did: string): Promise<string> {
  const { didDocument } = await agentContext.resolve(DidsApi).resolveCreatedDidDocumentWithKeys(did)
  const [first] = didDocument.assertionMethod ?? []
  if (first === undefined) throw new InvalidStateError('The signing DID has no assertion method')
  return typeof first === 'string' ? didDocument.dereferenceKey(first).id : first.id
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}
