import { performance } from 'node:perf_hooks'
import { inject, injectable } from 'inversify'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import type {
  AnonCredsProofRequestInput,
  OobProofRequest,
  ProofRecordJson,
  RequestProofRequest,
} from '@idplane/common/agent-contract/admin-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { connectionsConfig, type ConnectionsConfig } from '../connections/connections.config'
import { proofsConfig, type ProofsConfig } from './proofs.config'
import { DefinitionsLedger } from '../cred-defs/definitions-ledger'
import { escapeHtml } from '../../infra/http/escape-html'
import { linkQrCode } from '../../infra/mail/qr-code'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { TOKENS } from '../../infra/tokens'
import { OrgsRepository } from '../orgs/orgs.repository'
import { ShortUrls } from '../short-urls/short-urls.service'
import type { ListProofsQuery } from './dto/list-proofs.query'
import {
  toProofResponse,
  type OobProofResponse,
  type ProofDetailResponse,
  type ProofResponse,
  type VerifiedProofResponse,
} from './dto/proof.response'
import type {
  ConnectionProofRequestFieldsDto,
  OobProofRequestDto,
  ProofRequestFieldsDto,
  RequestProofDto,
  RequestProofV2Dto,
  RequestType,
} from './dto/request-proof.dto'
import { indyRequestFromAttributes, indyRequestFromJson, withBothLedgerIdForms } from './indy-proof-request'
import { anonCredsProofView, revocationChecksOf, verificationStatusOf } from './verified-proof'
import { ProofMetrics } from './proof-metrics'
import type { ProofRecord } from './proof.entity'
import { ProofsRepository } from './proofs.repository'
import { ProofRecords } from './proof-records'

const PRESENTATION_EXCHANGE: RequestType = 'PRESENTATIONEXCHANGE'

/** What a request asks the agent for: a DIF presentation definition, or an AnonCreds request and its protocol. */
type AgentProofFormat =
  | { presentationDefinition: Record<string, unknown> }
  | { proofFormats: { anoncreds: AnonCredsProofRequestInput }; protocolVersion: 'v1' | 'v2' }

/**
 * Verification (spec: Verification): proof requests through the organization's agent (DIF Presentation Exchange
 * over Present Proof v2; AnonCreds (INDY) over v1 in the `indy` format or v2 in the `anoncreds` format), the organization's proof records kept from the agent's answers and events, and reads that
 * add the agent's live data.
 */
@injectable()
export class ProofsService {
  private readonly limits: ProofsConfig & ConnectionsConfig
  /** The platform ledger's did:indy namespace: restrictions name its objects in both id forms. */
  private readonly ledgerNamespace: string

  public constructor(
    private readonly records: ProofsRepository,
    private readonly agents: AgentClients,
    private readonly proofRecords: ProofRecords,
    private readonly shortUrls: ShortUrls,
    private readonly outbox: MailOutbox,
    private readonly metrics: ProofMetrics,
    private readonly orgs: OrgsRepository,
    ledger: DefinitionsLedger,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.limits = { ...sectionOf(config, proofsConfig), ...sectionOf(config, connectionsConfig) }
    this.ledgerNamespace = ledger.namespace
  }

  /** `POST /v1/orgs/:orgId/proofs`: one request over one connection; the record in `request-sent`. */
  public async request(orgId: string, requestType: RequestType, body: RequestProofDto): Promise<ProofResponse> {
    const format = this.connectionFormatOf(requestType, body)
    const agent = await this.agents.forOrg(orgId)
    const sent = await agent.requestProof(this.agentRequest(body.connectionId, format, body))
    const [record] = await this.records.transactional(() => this.applyAll(orgId, [sent], { requestType }))
    return toProofResponse(record)
  }

  /**
   * `POST /v2/orgs/:orgId/proofs`: one request, and one record, per connection. Requests go out one by one; when the
   * agent refuses one, the records of those already sent are kept and the error is answered, naming the connection.
   */
  public async requestMany(orgId: string, requestType: RequestType, body: RequestProofV2Dto): Promise<ProofResponse[]> {
    const limit = this.limits.proofRequestConnections
    if (body.connectionId.length > limit) {
      throw new InvalidInputError(`connectionId holds at most ${limit} connection ids (PROOF_REQ_CONN_LIMIT)`, [
        { field: 'connectionId', message: `must hold 1 to ${limit} connection ids` },
      ])
    }
    if (new Set(body.connectionId).size !== body.connectionId.length) {
      throw new InvalidInputError('connectionId names a connection twice', [
        { field: 'connectionId', message: 'must not repeat a connection id' },
      ])
    }
    const format = this.connectionFormatOf(requestType, body)
    const agent = await this.agents.forOrg(orgId)
    const sent: ProofRecordJson[] = []
    let failure: unknown
    for (const connectionId of body.connectionId) {
      try {
        sent.push(await agent.requestProof(this.agentRequest(connectionId, format, body)))
      } catch (error) {
        failure = error
        if (error instanceof Error) error.message = `Connection ${connectionId}: ${error.message}`
        break
      }
    }
    const records = await this.records.transactional(() => this.applyAll(orgId, sent, { requestType }))
    if (failure !== undefined) throw failure
    return records.map(toProofResponse)
  }

  /**
   * `POST /v1/orgs/:orgId/proofs/oob`: an out-of-band request; with `emailId`, one request per address, each mailed
   * with its link and a QR code (through the mail outbox, in the transaction that stores the record).
   */
  public async requestOutOfBand(
    orgId: string,
    requestType: RequestType,
    body: OobProofRequestDto,
  ): Promise<OobProofResponse[]> {
    const emails = body.emailId ? [...new Set(body.emailId.map((address) => address.toLowerCase()))] : undefined
    const limit = this.limits.oobBatchSize
    if (emails && emails.length > limit) {
      throw new InvalidInputError(`emailId holds at most ${limit} addresses (OOB_BATCH_SIZE)`, [
        { field: 'emailId', message: `must hold 1 to ${limit} addresses` },
      ])
    }
    const format = this.formatOf(requestType, body, () =>
      body.proofFormats?.indy ? indyRequestFromJson(body.proofFormats.indy) : undefined,
    )
    const agent = await this.agents.forOrg(orgId)
    const created: { email: string | undefined; oob: OobProofRequest }[] = []
    for (const email of emails ?? [undefined]) {
      const oob = await agent.requestProofOutOfBand({
        ...format,
        comment: body.comment,
        goalCode: body.goalCode,
        label: body.label,
        autoAcceptProof: body.autoAcceptProof,
        reuseConnection: body.reuseConnection ?? false,
      })
      created.push({ email, oob })
    }
    const organizationName = emails ? await this.organizationName(orgId) : ''
    return this.records.transactional(async () => {
      const results: OobProofResponse[] = []
      for (const { email, oob } of created) {
        const outOfBandId = oob.outOfBandRecord.id
        const [record] = await this.applyAll(orgId, [oob.proofRecord], { requestType, outOfBandId })
        const invitationUrl =
          body.isShortenUrl === false ? oob.invitationUrl : await this.shortUrls.shorten(oob.invitationUrl, { orgId })
        if (email) await this.mailInvitation(email, invitationUrl, organizationName, record.id)
        results.push({
          ...(email ? { email } : {}),
          invitationUrl,
          longInvitationUrl: oob.invitationUrl,
          outOfBandId,
          proofRecord: toProofResponse(record),
        })
      }
      return results
    })
  }

  /**
   * `POST /proofs/:proofId/verify`: the agent accepts the received presentation and reports whether it verified;
   * the record takes the agent's answer.
   * @throws NotFoundError for a record the organization does not have
   */
  public async verify(orgId: string, proofId: string): Promise<ProofResponse> {
    await this.getRecord(orgId, proofId)
    const agent = await this.agents.forOrg(orgId)
    const started = performance.now()
    let result = 'error'
    try {
      const verification = await agent.verifyProof(proofId)
      result = verification.isVerified ? 'verified' : 'not-verified'
      const [record] = await this.records.transactional(() => this.applyAll(orgId, [verification.proofRecord], {}))
      return toProofResponse(record)
    } finally {
      this.metrics.verifyDuration.observe({ result }, (performance.now() - started) / 1000)
    }
  }

  public async list(orgId: string, query: ListProofsQuery): Promise<[ProofResponse[], number]> {
    const [records, total] = await this.records.listForOrg(orgId, {
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      searchByText: query.searchByText ?? query.search,
      sortField: query.sortField,
      sortBy: query.sortBy,
    })
    return [records.map(toProofResponse), total]
  }

  /** The record with the request and presentation the agent holds (null when the agent lost them). */
  public async get(orgId: string, proofId: string): Promise<ProofDetailResponse> {
    const record = await this.getRecord(orgId, proofId)
    const formData = await this.agentFormData(orgId, proofId)
    return { ...toProofResponse(record), proofData: formData?.formData ?? null }
  }

  /**
   * Revealed values (each presented credential's subject; for AnonCreds one object of every revealed value, and
   * the attributes, groups and predicates by referent) and the verification status.
   */
  public async verified(orgId: string, proofId: string): Promise<VerifiedProofResponse> {
    const record = await this.getRecord(orgId, proofId)
    const formData = await this.agentFormData(orgId, proofId)
    const isVerified = record.isVerified ?? formData?.isVerified ?? null
    return {
      proofId: record.id,
      state: record.state,
      isVerified,
      verificationStatus: verificationStatusOf(isVerified, record.state),
      errorMessage: record.errorMessage ?? null,
      revealed: (formData?.revealed ?? []).filter(
        (subject): subject is Record<string, unknown> => typeof subject === 'object' && subject !== null,
      ),
      ...anonCredsProofView(formData?.anoncreds ?? null, isVerified),
      revocationChecks: revocationChecksOf(formData?.formData, isVerified),
    }
  }

  /**
   * `DELETE /orgs/:orgId/verification-records`: the agent's proof records, then the platform's. An agent that
   * fails part-way leaves the platform's records, so the call can be repeated.
   */
  public async deleteAll(orgId: string): Promise<number> {
    const agent = await this.agents.forOrg(orgId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined
      throw error
    })
    if (agent !== undefined) {
      for (const proof of await agent.listProofs()) await this.deleteOnAgent(agent, proof.id)
    }
    return this.records.transactional(() => this.records.deleteAllForOrg(orgId))
  }

  /**
   * Applies records the agent answered with, in order, in the caller's transaction (ProofRecords; `extra`: what
   * the request knows of them).
   * @throws NotFoundError when an id names another organization's record
   */
  private async applyAll(
    orgId: string,
    agentRecords: readonly ProofRecordJson[],
    extra: { requestType?: string; outOfBandId?: string },
  ): Promise<ProofRecord[]> {
    const applied: ProofRecord[] = []
    for (const agentRecord of agentRecords) {
      const report = this.proofRecords.reportOf(agentRecord, undefined, extra)
      if (!report) throw new Error('The agent answered a proof record without id, state or threadId')
      const outcome = await this.proofRecords.apply(orgId, report)
      if (!outcome) throw new NotFoundError('Proof record not found')
      applied.push(outcome.row)
    }
    return applied
  }

  /** The connection routes: `proofFormats.indy.attributes` for INDY. */
  private connectionFormatOf(requestType: RequestType, body: ConnectionProofRequestFieldsDto): AgentProofFormat {
    return this.formatOf(requestType, body, () =>
      body.proofFormats?.indy
        ? indyRequestFromAttributes(body.proofFormats.indy.attributes, body.proofFormats.indy.non_revoked)
        : undefined,
    )
  }

  /**
   * Spec: Errors 2. `indyRequest` builds the AnonCreds request from the route's `proofFormats.indy` (undefined when
   * it is absent). INDY defaults to Present Proof v2 (the `anoncreds` format, any identifiers); v1 carries the
   * `indy` format.
   */
  private formatOf(
    requestType: RequestType,
    body: ProofRequestFieldsDto & { proofFormats?: { indy?: unknown } },
    indyRequest: () => AnonCredsProofRequestInput | undefined,
  ): AgentProofFormat {
    if (requestType === 'INDY') {
      if (!body.proofFormats?.indy) {
        throw new InvalidInputError('proofFormats is required when requestType is INDY (with its indy member)', [
          { field: 'proofFormats', message: 'is required when requestType is INDY (with indy)' },
        ])
      }
      if (body.protocolVersion !== undefined && body.protocolVersion !== 'v1' && body.protocolVersion !== 'v2') {
        throw new InvalidInputError('INDY proofs use protocolVersion v1 or v2', [
          { field: 'protocolVersion', message: 'must be v1 or v2 for INDY' },
        ])
      }
      const request = indyRequest()
      if (!request) throw new Error('proofFormats.indy was checked above')
      const protocolVersion = body.protocolVersion === 'v1' ? 'v1' : 'v2'
      return {
        proofFormats: { anoncreds: withBothLedgerIdForms(request, this.ledgerNamespace, protocolVersion) },
        protocolVersion,
      }
    }
    return { presentationDefinition: this.presentationDefinitionOf(body) }
  }

  private presentationDefinitionOf(body: ProofRequestFieldsDto): Record<string, unknown> {
    if (!body.presentationDefinition) {
      throw new InvalidInputError(`presentationDefinition is required when requestType is ${PRESENTATION_EXCHANGE}`, [
        { field: 'presentationDefinition', message: `is required when requestType is ${PRESENTATION_EXCHANGE}` },
      ])
    }
    if (body.protocolVersion !== undefined && body.protocolVersion !== 'v2') {
      throw new InvalidInputError('Presentation Exchange proofs use protocolVersion v2 (Present Proof 2.0)', [
        { field: 'protocolVersion', message: 'must be v2 for PRESENTATIONEXCHANGE' },
      ])
    }
    // The validated DTO back to plain JSON for the agent (class instances carry no extra keys: whitelisted).
    return JSON.parse(JSON.stringify(body.presentationDefinition)) as Record<string, unknown>
  }

  private agentRequest(
    connectionId: string,
    format: AgentProofFormat,
    body: ProofRequestFieldsDto,
  ): RequestProofRequest {
    return {
      connectionId,
      ...format,
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptProof: body.autoAcceptProof,
      willConfirm: body.willConfirm,
    }
  }

  private async getRecord(orgId: string, proofId: string): Promise<ProofRecord> {
    const record = await this.records.findForOrg(orgId, proofId)
    if (!record) throw new NotFoundError('Proof record not found')
    return record
  }

  private async agentFormData(orgId: string, proofId: string) {
    const agent = await this.agents.forOrg(orgId)
    try {
      return await agent.getProofFormData(proofId)
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }

  private async deleteOnAgent(agent: AgentClient, proofId: string): Promise<void> {
    try {
      await agent.deleteProof(proofId)
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
    }
  }

  private async organizationName(orgId: string): Promise<string> {
    return (await this.orgs.nameOf(orgId)) ?? 'An organization'
  }

  private async mailInvitation(to: string, url: string, organizationName: string, proofId: string): Promise<void> {
    const qrCode = await linkQrCode(url)
    const subject = `${organizationName} asks you for a proof`
    const text = [
      `${organizationName} asks you to present a credential.`,
      '',
      `Open this link with your wallet, or scan the QR code in the HTML version of this mail:`,
      url,
    ].join('\n')
    const html = [
      `<p>${escapeHtml(organizationName)} asks you to present a credential.</p>`,
      `<p><a href="${escapeHtml(url)}">Open the proof request in your wallet</a></p>`,
      `<p><img src="${qrCode}" alt="QR code of the proof request" width="256" height="256"></p>`,
    ].join('\n')
    await this.outbox.add([{ idempotencyKey: `proof-oob:${proofId}:${to}`, message: { to, subject, text, html } }])
  }
}
