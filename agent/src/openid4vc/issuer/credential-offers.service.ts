import { type AgentContext, injectable } from '@credo-ts/core'
import {
  OpenId4VcIssuanceSessionRecord,
  OpenId4VcIssuanceSessionRepository,
  type OpenId4VcIssuanceSessionState,
  OpenId4VcIssuerApi,
} from '@credo-ts/openid4vc'
import { type FieldError, InvalidInputError, NotFoundError } from '@idplane/common'
import type { CredentialStatusListJson } from '@idplane/common/agent-contract/openid4vc-api'

import { checkClaimValues } from './claim-values'
import type { OfferIssuanceMetadata } from './credential-issuance'
import type { CredentialTemplateRecord } from './credential-template.record'
import { CredentialTemplatesService } from './credential-templates.service'
import { IssuersService } from './issuers.service'
import { statusProblem } from './offer-status'

/** Most credentials one offer may carry. */
export const MAX_CREDENTIALS_PER_OFFER = 10
/** Bounds of an offer's lifetime in seconds (one minute to thirty days). */
export const OFFER_EXPIRY_BOUNDS = { min: 60, max: 30 * 24 * 60 * 60 } as const

export interface TxCodeInput {
  /** @default 6 */
  length?: number
  /** @default 'numeric' */
  inputMode?: 'numeric' | 'text'
  /** Shown by the wallet next to the input (at most 300 characters, OID4VCI 1.0 section 4.1.1). */
  description?: string
}

export interface CredentialOfferInput {
  /** `status`: the Token Status List entry the API allocated (dc+sd-jwt and mso_mdoc templates). */
  credentials: { templateId: string; claims: Record<string, unknown>; status?: CredentialStatusListJson }[]
  /** Pre-authorized offers: the wallet must also send this code, which the organization gives the holder separately. */
  txCode?: TxCodeInput
  /** @default Credo's 180 seconds */
  expiresInSeconds?: number
}

export interface CreatedOffer {
  session: OpenId4VcIssuanceSessionRecord
  /** The offer as a URI for a QR code or a link (`openid-credential-offer://?credential_offer_uri=...`). */
  offerUri: string
  /** The transaction code the holder must type in, when the offer asks for one. */
  txCode?: string
}

/**
 * Credential offers of an issuer (Credo's issuance sessions). The flow follows the templates: pre-authorized (with
 * an optional transaction code), or the authorization code flow for templates that ask for a presentation or an
 * external authorization server; the templates of one offer must agree on it.
 */
@injectable()
export class CredentialOffersService {
  public constructor(
    private readonly issuers: IssuersService,
    private readonly templates: CredentialTemplatesService,
    private readonly sessions: OpenId4VcIssuanceSessionRepository,
  ) {}

  /**
   * @throws {NotFoundError} for an unknown issuer or template
   * @throws {InvalidInputError} for claims that do not fit their template, or templates asking for different flows
   */
  public async create(
    agentContext: AgentContext,
    issuerId: string,
    input: CredentialOfferInput,
  ): Promise<CreatedOffer> {
    await this.issuers.get(agentContext, issuerId)
    checkOfferShape(input)
    const templates: CredentialTemplateRecord[] = []
    const metadata: OfferIssuanceMetadata = { credentials: {} }
    const problems: FieldError[] = []
    for (const [index, entry] of input.credentials.entries()) {
      const template = await this.templates.get(agentContext, issuerId, entry.templateId)
      templates.push(template)
      if (entry.status !== undefined) {
        const problem = statusProblem(template.format, entry.status)
        if (problem) problems.push({ field: `credentials[${index}].status`, message: problem })
        else
          metadata.statuses = {
            ...metadata.statuses,
            [template.id]: {
              idx: entry.status.idx,
              uri: entry.status.uri,
              ...(entry.status.copyIdx ? { copyIdx: entry.status.copyIdx } : {}),
              ...(entry.status.certificateId ? { certificateId: entry.status.certificateId } : {}),
            },
          }
      }
      try {
        metadata.credentials[template.id] = checkClaimValues(template, entry.claims, `credentials[${index}].claims`)
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error
        problems.push(...error.fields)
      }
    }
    if (problems.length > 0) throw new InvalidInputError('Invalid claims', problems)
    const authorization = sharedAuthorization(templates)
    if (input.txCode && authorization.type !== 'pre-authorized') {
      throw new InvalidInputError('A transaction code belongs to pre-authorized offers', [
        { field: 'txCode', message: 'only for templates of the pre-authorized flow' },
      ])
    }
    const { issuanceSession, credentialOffer } = await agentContext.resolve(OpenId4VcIssuerApi).createCredentialOffer({
      issuerId,
      credentialConfigurationIds: templates.map((template) => template.id),
      ...(authorization.type === 'pre-authorized'
        ? { preAuthorizedCodeFlowConfig: { txCode: input.txCode ? txCodeOf(input.txCode) : undefined } }
        : {
            authorizationCodeFlowConfig:
              authorization.type === 'presentation'
                ? { requirePresentationDuringIssuance: true }
                : { authorizationServerUrl: authorization.authorizationServerUrl },
          }),
      issuanceMetadata: { ...metadata },
      expirationInSeconds: input.expiresInSeconds,
      version: 'v1',
    })
    return { session: issuanceSession, offerUri: credentialOffer, txCode: issuanceSession.userPin }
  }

  public async list(
    agentContext: AgentContext,
    filter: { issuerId?: string; state?: OpenId4VcIssuanceSessionState } = {},
  ): Promise<OpenId4VcIssuanceSessionRecord[]> {
    const query = {
      ...(filter.issuerId ? { issuerId: filter.issuerId } : {}),
      ...(filter.state ? { state: filter.state } : {}),
    }
    const records = await this.sessions.findByQuery(agentContext, query)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async get(agentContext: AgentContext, offerId: string): Promise<OpenId4VcIssuanceSessionRecord> {
    const record = await this.sessions.findById(agentContext, offerId)
    if (!record) throw new NotFoundError('Credential offer not found')
    return record
  }

  /**
   * Removes the offer: its codes no longer redeem (the wallet gets `invalid_grant`).
   * @throws {NotFoundError}
   */
  public async delete(agentContext: AgentContext, offerId: string): Promise<void> {
    await this.sessions.delete(agentContext, await this.get(agentContext, offerId))
  }
}

function checkOfferShape(input: CredentialOfferInput): void {
  const problems: FieldError[] = []
  const credentials = input?.credentials
  if (!Array.isArray(credentials) || credentials.length === 0 || credentials.length > MAX_CREDENTIALS_PER_OFFER) {
    problems.push({ field: 'credentials', message: `must list 1 to ${MAX_CREDENTIALS_PER_OFFER} credentials` })
  } else {
    const ids = credentials.map((entry) => entry?.templateId)
    if (ids.some((id) => typeof id !== 'string' || id === ''))
      problems.push({ field: 'credentials', message: 'each needs a templateId' })
    else if (new Set(ids).size !== ids.length)
      problems.push({ field: 'credentials', message: 'names a template twice' })
  }
  const { txCode, expiresInSeconds } = input ?? {}
  if (txCode !== undefined) {
    if (typeof txCode !== 'object' || txCode === null) problems.push({ field: 'txCode', message: 'must be an object' })
    else {
      if (
        txCode.length !== undefined &&
        !(Number.isInteger(txCode.length) && txCode.length >= 4 && txCode.length <= 12)
      ) {
        problems.push({ field: 'txCode.length', message: 'must be a whole number from 4 to 12' })
      }
      if (txCode.inputMode !== undefined && txCode.inputMode !== 'numeric' && txCode.inputMode !== 'text') {
        problems.push({ field: 'txCode.inputMode', message: "must be 'numeric' or 'text'" })
      }
      if (
        txCode.description !== undefined &&
        (typeof txCode.description !== 'string' || txCode.description.length > 300)
      ) {
        problems.push({ field: 'txCode.description', message: 'must be a string of at most 300 characters' })
      }
    }
  }
  if (
    expiresInSeconds !== undefined &&
    !(
      Number.isInteger(expiresInSeconds) &&
      expiresInSeconds >= OFFER_EXPIRY_BOUNDS.min &&
      expiresInSeconds <= OFFER_EXPIRY_BOUNDS.max
    )
  ) {
    problems.push({
      field: 'expiresInSeconds',
      message: `must be a whole number from ${OFFER_EXPIRY_BOUNDS.min} to ${OFFER_EXPIRY_BOUNDS.max}`,
    })
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid credential offer', problems)
}

/** The templates' common authorization; the first template's when they agree. */
function sharedAuthorization(templates: CredentialTemplateRecord[]): CredentialTemplateRecord['authorization'] {
  const [first, ...rest] = templates
  const key = JSON.stringify(first.authorization)
  if (rest.some((template) => JSON.stringify(template.authorization) !== key)) {
    throw new InvalidInputError('The templates of one offer must use the same authorization', [
      { field: 'credentials', message: 'mixes templates with different authorization' },
    ])
  }
  return first.authorization
}

function txCodeOf(input: TxCodeInput) {
  return {
    input_mode: input.inputMode ?? 'numeric',
    length: input.length ?? 6,
    ...(input.description ? { description: input.description } : {}),
  }
}
