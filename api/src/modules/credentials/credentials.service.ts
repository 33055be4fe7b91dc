import { inject, injectable } from 'inversify'
import { InvalidInputError, InvalidStateError, NotFoundError, UpstreamError, type FieldError } from '@idplane/common'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { connectionsConfig } from '../connections/connections.config'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { TOKENS } from '../../infra/tokens'
import { CredDefsService } from '../cred-defs/cred-defs.service'
import { OrgsRepository } from '../orgs/orgs.repository'
import { CredentialSchemaCheck } from '../schemas/credential-schema-check'
import { ShortUrls } from '../short-urls/short-urls.service'
import { CredentialMetrics } from './credential-metrics'
import { buildCredentialOfferMail } from './credential-offer-mail'
import { indyPlan, jsonLdPlan, type OfferPlan } from './agent-offers'
import type {
  EmailOfferCredentialDto,
  IssuanceQuery,
  OfferCredentialDto,
  OobOfferCredentialDto,
} from './dto/issue-credential.dto'
import {
  toCredentialRecordResponse,
  type EmailOfferResponse,
  type CredentialRecordDetailResponse,
  type CredentialRecordResponse,
  type OobOfferResponse,
} from './dto/credential.response'
import { checkIndyAttributes, checkIssuanceRequest, credentialTypeOf, type CredentialContent } from './issuance-input'
import type { CredentialRecord } from './credential.entity'
import { CredentialsRepository, type CredentialRecordPageQuery } from './credentials.repository'
import { CredentialRecords } from './credential-records'
import { RevocableOffers } from './revocable-offers'

/**
 * Issuance through the organization's agent (spec: Credential issuance, not bulk): W3C JSON-LD over Issue Credential
 * v2, and AnonCreds (INDY) over v1 (the `indy` format) or v2 (the `anoncreds` format). Records are created
 * from the agent's answer (state `offer-sent`) and kept up to date from its events (credential-records.ts).
 * Body fields the agent cannot apply are accepted and ignored (docs/decisions.md, "Credentials").
 */
@injectable()
export class CredentialsService {
  private readonly oobBatchSize: number

  public constructor(
    private readonly agents: AgentClients,
    private readonly credDefs: CredDefsService,
    private readonly records: CredentialsRepository,
    private readonly recordUpdates: CredentialRecords,
    private readonly schemaCheck: CredentialSchemaCheck,
    private readonly shortUrls: ShortUrls,
    private readonly mail: MailOutbox,
    private readonly orgs: OrgsRepository,
    private readonly revocableOffers: RevocableOffers,
    @inject(CredentialMetrics) private readonly metrics: CredentialMetrics,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.oobBatchSize = sectionOf(config, connectionsConfig).oobBatchSize
  }

  /**
   * `POST credentials/offer`: one offer per `credentialData` entry, in order, each over its connection.
   * @throws NotFoundError for an unknown credentialType, a connection the agent does not know, or no agent
   * @throws InvalidInputError for missing fields, a credential its schema refuses, or one the agent cannot sign
   * @throws NotFoundError (INDY) for a credential definition the agent's registry cannot resolve
   * @throws InProgressError (INDY) while the credential definition is still being created (409 with Retry-After)
   */
  public async offer(
    orgId: string,
    query: IssuanceQuery,
    body: OfferCredentialDto,
  ): Promise<CredentialRecordResponse[]> {
    const contents = body.credentialData.map((content, index) => ({ content, prefix: `credentialData[${index}].` }))
    const plans = await this.plan(orgId, query, body, contents)
    const agent = await this.agents.forOrg(orgId)
    // Every connection is checked before the first offer goes out, so an unknown one offers nothing.
    for (const connectionId of new Set(body.credentialData.map((entry) => entry.connectionId))) {
      await agent.getConnection(connectionId)
    }
    const created: CredentialRecordResponse[] = []
    for (const [index, entry] of body.credentialData.entries()) {
      const plan = await this.revocableOffers.prepare(orgId, plans[index])
      const agentRecord = await this.timed('connection', () =>
        agent.offerCredential({
          connectionId: entry.connectionId,
          ...plan.format,
          comment: body.comment,
          goalCode: body.goalCode,
          autoAcceptCredential: body.autoAcceptCredential,
        }),
      )
      const record = await this.records.transactional(() =>
        this.recordUpdates.applyOffer(orgId, agentRecord, plan.details),
      )
      created.push(toCredentialRecordResponse(record))
    }
    return created
  }

  /**
   * `POST credentials/oob/offer`: an out-of-band invitation carrying the offer; a short link with `isShortenUrl`.
   * @throws the errors of `offer`, but no connection is involved
   */
  public async offerOutOfBand(
    orgId: string,
    query: IssuanceQuery,
    body: OobOfferCredentialDto,
  ): Promise<OobOfferResponse> {
    const [planned] = await this.plan(orgId, query, body, [{ content: body, prefix: '' }])
    const plan = await this.revocableOffers.prepare(orgId, planned)
    const agent = await this.agents.forOrg(orgId)
    const made = await this.timed('oob', () =>
      agent.offerCredentialOutOfBand({
        ...plan.format,
        comment: body.comment,
        label: body.label,
        imageUrl: body.imageUrl,
        goalCode: body.goalCode,
        autoAcceptCredential: body.autoAcceptCredential,
      }),
    )
    return this.records.transactional(async () => {
      const record = await this.recordUpdates.applyOffer(orgId, made.credentialRecord, {
        ...plan.details,
        outOfBandId: made.outOfBandRecord.id,
      })
      const shortUrl = body.isShortenUrl ? await this.shortUrls.shorten(made.invitationUrl, { orgId }) : null
      return {
        invitationUrl: made.invitationUrl,
        shortUrl,
        outOfBandId: made.outOfBandRecord.id,
        invitation: made.invitation,
        record: toCredentialRecordResponse(record),
      }
    })
  }

  /**
   * `POST credentials/oob/email`: one out-of-band offer per entry, mailed to its address with the (short) link and
   * its QR code, through the mail outbox in the transaction that records the offer.
   * @throws InvalidInputError also for more entries than OOB_BATCH_SIZE
   */
  public async offerByEmail(
    orgId: string,
    query: IssuanceQuery,
    body: EmailOfferCredentialDto,
  ): Promise<EmailOfferResponse[]> {
    if (body.credentialOffer.length > this.oobBatchSize) {
      throw new InvalidInputError('Too many credential offers', [
        { field: 'credentialOffer', message: `must hold at most ${this.oobBatchSize} entries (OOB_BATCH_SIZE)` },
      ])
    }
    // Spec: one element per recipient address; a second entry for an address would mail it twice.
    const seen = new Set<string>()
    const repeated: FieldError[] = []
    body.credentialOffer.forEach((entry, index) => {
      const address = entry.emailId.toLowerCase()
      if (seen.has(address))
        repeated.push({ field: `credentialOffer[${index}].emailId`, message: 'appears more than once' })
      seen.add(address)
    })
    if (repeated.length > 0) throw new InvalidInputError('One entry per address', repeated)
    const contents = body.credentialOffer.map((content, index) => ({ content, prefix: `credentialOffer[${index}].` }))
    const plans = await this.plan(orgId, query, body, contents)
    const organization = await this.orgs.findById(orgId)
    if (!organization) throw new NotFoundError('Organization not found')
    const agent = await this.agents.forOrg(orgId)
    const sent: EmailOfferResponse[] = []
    for (const [index, entry] of body.credentialOffer.entries()) {
      const plan = await this.revocableOffers.prepare(orgId, plans[index])
      const made = await this.timed('email', () =>
        agent.offerCredentialOutOfBand({ ...plan.format, comment: body.comment }),
      )
      const result = await this.records.transactional(async () => {
        const record = await this.recordUpdates.applyOffer(orgId, made.credentialRecord, {
          ...plan.details,
          outOfBandId: made.outOfBandRecord.id,
          emailId: entry.emailId,
        })
        // Always short: a JSON-LD offer's own URL is several kilobytes, too long for a QR code and for mail clients.
        const invitationUrl = await this.shortUrls.shorten(made.invitationUrl, { orgId })
        const message = await buildCredentialOfferMail({
          to: entry.emailId,
          orgName: organization.name,
          invitationUrl,
          credentialTypes: record.credentialSummary?.types ?? [],
        })
        await this.mail.add([{ idempotencyKey: `credential-offer:${orgId}:${record.credentialRecordId}`, message }])
        return { emailId: entry.emailId, invitationUrl, record: toCredentialRecordResponse(record) }
      })
      sent.push(result)
    }
    return sent
  }

  public list(orgId: string, query: CredentialRecordPageQuery): Promise<[CredentialRecord[], number]> {
    return this.records.listForOrg(orgId, query)
  }

  /**
   * One record with what the agent holds now: its exchange record and format data (offer, request, issued
   * credential). `agentDetail` is null when the agent no longer has the record or cannot be asked.
   * @throws NotFoundError when the organization has no such record
   */
  public async get(orgId: string, credentialRecordId: string): Promise<CredentialRecordDetailResponse> {
    const record = await this.records.findForOrg(orgId, credentialRecordId)
    if (!record) throw new NotFoundError('Issuance record not found')
    return { ...toCredentialRecordResponse(record), agentDetail: await this.agentDetail(orgId, credentialRecordId) }
  }

  /**
   * Deletes the organization's issuance records and its agent's credential exchange records (issued credentials
   * are the holders'; the agent keeps none). Without an agent, only the platform's records.
   * @returns how many platform records were deleted
   */
  public async deleteAll(orgId: string): Promise<number> {
    const agent = await this.agentIfAny(orgId)
    if (agent) {
      for (const exchange of await agent.listCredentials()) {
        try {
          await agent.deleteCredential(exchange.id)
        } catch (error) {
          // Deleted meanwhile (a concurrent delete-all): what we wanted.
          if (!(error instanceof NotFoundError)) throw error
        }
      }
    }
    return this.records.transactional(async () => (await this.records.deleteAllForOrg(orgId)).length)
  }

  /**
   * Checks the request and makes one plan per content, in order. INDY: the credential definition is resolved
   * through the agent (404 when its registry does not know it) and the attributes are checked against its
   * schema's names (always: AnonCreds cannot sign a credential that does not match, so `isValidateSchema=false`
   * does not skip it).
   */
  private async plan(
    orgId: string,
    query: IssuanceQuery,
    body: { credentialDefinitionId?: string; protocolVersion?: string },
    contents: { content: CredentialContent; prefix: string }[],
  ): Promise<OfferPlan[]> {
    const type = credentialTypeOf(query.credentialType)
    checkIssuanceRequest(type, body, contents)
    if (type === 'INDY') {
      // checkIssuanceRequest made sure of it.
      const agent = await this.agents.forOrg(orgId)
      const protocolVersion = body.protocolVersion === 'v1' ? 'v1' : 'v2'
      // Either id form names one definition; the agent gets the form it registered it under (issue 22 items 1, 3).
      const credDefId = await this.credDefs.idForOffer(orgId, body.credentialDefinitionId ?? '', protocolVersion)
      const definition = await agent.resolveCredentialDefinition(credDefId)
      checkIndyAttributes(definition.schema.attrNames, contents)
      return contents.map(({ content }) => indyPlan(definition, content, protocolVersion))
    }
    if (query.isValidateSchema !== 'false') {
      for (const { content } of contents) {
        if (content.credential) await this.schemaCheck.check(orgId, content.credential)
      }
    }
    return contents.map(({ content }) => jsonLdPlan(content))
  }

  private async agentIfAny(orgId: string): Promise<AgentClient | undefined> {
    try {
      return await this.agents.forOrg(orgId)
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }

  private async agentDetail(
    orgId: string,
    credentialRecordId: string,
  ): Promise<CredentialRecordDetailResponse['agentDetail']> {
    try {
      const agent = await this.agents.forOrg(orgId)
      const [record, formData] = await Promise.all([
        agent.getCredential(credentialRecordId),
        agent.getCredentialFormData(credentialRecordId),
      ])
      return { record, formData }
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof UpstreamError || error instanceof InvalidStateError) {
        return null
      }
      throw error
    }
  }

  private async timed<T>(route: 'connection' | 'oob' | 'email', call: () => Promise<T>): Promise<T> {
    const end = this.metrics.offerDuration.startTimer({ route })
    try {
      const result = await call()
      end({ result: 'success' })
      return result
    } catch (error) {
      end({ result: 'failure' })
      throw error
    }
  }
}
