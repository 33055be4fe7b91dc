import { inject, injectable } from 'inversify'
import { InvalidInputError, InvalidStateError, NotFoundError, UpstreamError, type FieldError } from '@idplane/common'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { TOKENS } from '../../infra/tokens'
import { OrgsRepository } from '../orgs/orgs.repository'
import { CredentialSchemaCheck } from '../schemas/credential-schema-check'
import { ShortUrls } from '../short-urls/short-urls.service'
import { CredentialMetrics } from './credential-metrics'
import { buildCredentialOfferMail } from './credential-offer-mail'
import { detailsOf, jsonLdOffer, reportOfAgentRecord } from './agent-offers'
import type {
  EmailOfferCredentialDto,
  IssuanceQuery,
  OfferCredentialDto,
  OobOfferCredentialDto,
} from './dto/issue-credential.dto'
import {
  toIssuanceRecordResponse,
  type EmailOfferResponse,
  type IssuanceRecordDetailResponse,
  type IssuanceRecordResponse,
  type OobOfferResponse,
} from './dto/issuance-record.response'
import { checkIssuanceRequest, credentialTypeOf, type CredentialContent } from './issuance-input'
import type { IssuanceRecord } from './issuance-record.entity'
import { IssuanceRecordsRepository, type IssuanceRecordPageQuery } from './issuance-records.repository'
import { IssuanceRecordsService } from './issuance-records.service'

/**
 * W3C JSON-LD issuance through the organization's agent (spec: Credential issuance, not bulk). Records are created
 * from the agent's answer (state `offer-sent`) and kept up to date from its events (issuance-records.handler.ts).
 * Body fields the agent cannot apply are accepted and ignored (docs/decisions.md, "Credentials").
 */
@injectable()
export class CredentialsService {
  private readonly oobBatchSize: number

  public constructor(
    private readonly agents: AgentClients,
    private readonly records: IssuanceRecordsRepository,
    private readonly recordUpdates: IssuanceRecordsService,
    private readonly schemaCheck: CredentialSchemaCheck,
    private readonly shortUrls: ShortUrls,
    private readonly mail: MailOutbox,
    private readonly orgs: OrgsRepository,
    @inject(CredentialMetrics) private readonly metrics: CredentialMetrics,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.oobBatchSize = config.limits.oobBatchSize
  }

  /**
   * `POST credentials/offer`: one offer per `credentialData` entry, in order, each over its connection.
   * @throws NotFoundError for an unknown credentialType, a connection the agent does not know, or no agent
   * @throws InvalidInputError for missing fields, a credential its schema refuses, or one the agent cannot sign
   * @throws NotImplementedError for INDY
   */
  public async offer(orgId: string, query: IssuanceQuery, body: OfferCredentialDto): Promise<IssuanceRecordResponse[]> {
    const contents = body.credentialData.map((content, index) => ({ content, prefix: `credentialData[${index}].` }))
    await this.checkRequest(orgId, query, body, contents)
    const agent = await this.agents.forOrg(orgId)
    // Every connection is checked before the first offer goes out, so an unknown one offers nothing.
    for (const connectionId of new Set(body.credentialData.map((entry) => entry.connectionId))) {
      await agent.getConnection(connectionId)
    }
    const created: IssuanceRecordResponse[] = []
    for (const entry of body.credentialData) {
      const offer = jsonLdOffer(entry)
      const agentRecord = await this.timed('connection', () =>
        agent.offerCredential({
          connectionId: entry.connectionId,
          ...offer,
          comment: body.comment,
          goalCode: body.goalCode,
          autoAcceptCredential: body.autoAcceptCredential,
        }),
      )
      const record = await this.records.transactional(() =>
        this.recordUpdates.apply(orgId, reportOfAgentRecord(agentRecord), detailsOf(offer)),
      )
      created.push(toIssuanceRecordResponse(record))
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
    await this.checkRequest(orgId, query, body, [{ content: body, prefix: '' }])
    const agent = await this.agents.forOrg(orgId)
    const offer = jsonLdOffer(body)
    const made = await this.timed('oob', () =>
      agent.offerCredentialOutOfBand({
        ...offer,
        comment: body.comment,
        label: body.label,
        imageUrl: body.imageUrl,
        goalCode: body.goalCode,
        autoAcceptCredential: body.autoAcceptCredential,
      }),
    )
    return this.records.transactional(async () => {
      const record = await this.recordUpdates.apply(orgId, reportOfAgentRecord(made.credentialRecord), {
        ...detailsOf(offer),
        outOfBandId: made.outOfBandRecord.id,
      })
      const shortUrl = body.isShortenUrl ? await this.shortUrls.shorten(made.invitationUrl, { orgId }) : null
      return {
        invitationUrl: made.invitationUrl,
        shortUrl,
        outOfBandId: made.outOfBandRecord.id,
        invitation: made.invitation,
        record: toIssuanceRecordResponse(record),
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
    await this.checkRequest(orgId, query, body, contents)
    const organization = await this.orgs.findById(orgId)
    if (!organization) throw new NotFoundError('Organization not found')
    const agent = await this.agents.forOrg(orgId)
    const sent: EmailOfferResponse[] = []
    for (const entry of body.credentialOffer) {
      const offer = jsonLdOffer(entry)
      const made = await this.timed('email', () => agent.offerCredentialOutOfBand({ ...offer, comment: body.comment }))
      const result = await this.records.transactional(async () => {
        const record = await this.recordUpdates.apply(orgId, reportOfAgentRecord(made.credentialRecord), {
          ...detailsOf(offer),
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
        return { emailId: entry.emailId, invitationUrl, record: toIssuanceRecordResponse(record) }
      })
      sent.push(result)
    }
    return sent
  }

  public list(orgId: string, query: IssuanceRecordPageQuery): Promise<[IssuanceRecord[], number]> {
    return this.records.listForOrg(orgId, query)
  }

  /**
   * One record with what the agent holds now: its exchange record and format data (offer, request, issued
   * credential). `agentDetail` is null when the agent no longer has the record or cannot be asked.
   * @throws NotFoundError when the organization has no such record
   */
  public async get(orgId: string, credentialRecordId: string): Promise<IssuanceRecordDetailResponse> {
    const record = await this.records.findForOrg(orgId, credentialRecordId)
    if (!record) throw new NotFoundError('Issuance record not found')
    return { ...toIssuanceRecordResponse(record), agentDetail: await this.agentDetail(orgId, credentialRecordId) }
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

  private async checkRequest(
    orgId: string,
    query: IssuanceQuery,
    body: { credentialDefinitionId?: string; protocolVersion?: string },
    contents: { content: CredentialContent; prefix: string }[],
  ): Promise<void> {
    checkIssuanceRequest(credentialTypeOf(query.credentialType), body, contents)
    if (query.isValidateSchema === 'false') return
    for (const { content } of contents) {
      if (content.credential) await this.schemaCheck.check(orgId, content.credential)
    }
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
  ): Promise<IssuanceRecordDetailResponse['agentDetail']> {
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
