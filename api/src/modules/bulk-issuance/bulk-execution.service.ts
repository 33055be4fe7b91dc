import { inject, injectable } from 'inversify'
import {
  BoundedMap,
  InvalidInputError,
  InvalidStateError,
  Logger,
  NotFoundError,
  type FieldError,
} from '@idplane/common'
import type { OobCredentialOffer, ResolvedCredentialDefinition } from '@idplane/common/agent-contract/admin-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import { Queue, type QueueMessage } from '../../infra/queue/queue'
import { TOKENS } from '../../infra/tokens'
import { indyPlan, jsonLdPlan, type OfferPlan } from '../credentials/agent-offers'
import { CredentialRecords } from '../credentials/credential-records'
import { RevocableOffers } from '../credentials/revocable-offers'
import type { RecordDetails } from '../credentials/credential.mapper'
import { OrgsRepository } from '../orgs/orgs.repository'
import { OrgDidsRepository } from '../orgs/org-dids.repository'
import { ShortUrls } from '../short-urls/short-urls.service'
import { BULK_SIGNING_OPTIONS, bulkCredential, credentialTypeName } from './bulk-credential'
import { bulkIssuanceConfig } from './bulk-issuance.config'
import { BulkIssuanceRepository } from './bulk-issuance.repository'
import { BulkMetrics } from './bulk-metrics'
import { buildBulkOfferMail } from './bulk-offer-mail'
import type { BulkRequestStatus, BulkRowStatus } from './bulk-issuance.states'
import type { BulkExecutionOptions, BulkRequest, BulkSchemaType } from './bulk-request.entity'
import { BulkRow } from './bulk-row.entity'
import { BulkTemplatesService, type ResolvedTemplate } from './bulk-templates.service'
import { RowChecker } from './row-validation'

/** The queue of row jobs (prefixed with QUEUE_NAME_PREFIX). */
export const BULK_QUEUE = 'bulk-issuance'
export const BULK_STARTED = 'bulk-issuance.started'
export const BULK_COMPLETED = 'bulk-issuance.completed'
/** A row's job is tried this many times (agent unreachable, database busy) before the row is `failed`. */
export const ROW_JOB_ATTEMPTS = 4
export const ROW_JOB_RETRY_DELAYS_MS = [1_000, 5_000, 25_000]

export interface RowJob {
  rowId: string
  requestId: string
  orgId: string
  /** The row's execution number (BulkRow.attempts); a job of an older execution is stale. */
  execution: number
}

export interface ExecuteQuery {
  isValidateSchema: boolean
  templateId?: string
}

export interface ExecuteBody extends BulkExecutionOptions {
  fileName?: string
  isSelectiveIssuance?: boolean
  selectedRows?: number[]
}

export type StatusCounts = Record<BulkRowStatus, number>

/** What the progress route and the platform events show of a request. */
export interface BulkRequestView {
  requestId: string
  fileName: string
  schemaType: BulkSchemaType
  templateId: string
  status: BulkRequestStatus
  totalRows: number
  counts: StatusCounts
  clientId: string | null
  createdAt: string
  startedAt: string | null
  completedAt: string | null
}

export interface BulkRowView {
  row: number
  email: string
  status: BulkRowStatus
  attempts: number
  credentialRecordId: string | null
  error: string | null
}

/** What one request's rows are issued with, looked up once per execution rather than once per row. */
export type IssuingContext = {
  schemaName: string
  orgName: string
  options: BulkExecutionOptions
} & (
  | {
      /** W3C: the schema's public URL and the organization's primary DID, the credential's issuer. */
      w3c: { schemaUrl: string; issuerDid: string }
      indy?: never
    }
  | {
      /** INDY: the credential definition as the agent's registry resolves it. */
      indy: ResolvedCredentialDefinition
      w3c?: never
    }
)

function viewOf(request: BulkRequest, counts: StatusCounts): BulkRequestView {
  return {
    requestId: request.id,
    fileName: request.fileName,
    schemaType: request.schemaType,
    templateId: request.executionOptions.templateId ?? request.templateId,
    status: request.status,
    totalRows: request.totalRows,
    counts,
    clientId: request.executionOptions.clientId ?? null,
    createdAt: request.createdAt.toISOString(),
    startedAt: request.startedAt?.toISOString() ?? null,
    completedAt: request.completedAt?.toISOString() ?? null,
  }
}

export function rowViewOf(row: BulkRow): BulkRowView {
  return {
    row: row.rowNumber,
    email: row.email,
    status: row.status,
    attempts: row.attempts,
    credentialRecordId: row.credentialRecordId ?? null,
    error: row.error ?? null,
  }
}

/**
 * Executes uploaded requests: one queue job per row, each making an out-of-band offer with the organization's
 * agent and putting its mail into the outbox in the transaction that marks the row `sent`. A row's mail has
 * the idempotency key `bulk-issuance:<requestId>:<row>`, so redeliveries, retries and restarts never mail a
 * recipient twice (docs/decisions.md, Bulk issuance).
 */
@injectable()
export class BulkExecutionService {
  private readonly queueName: string
  private readonly concurrency: number
  private readonly contexts = new BoundedMap<string, Promise<IssuingContext>>(50)
  private readonly logger: Logger

  public constructor(
    private readonly repository: BulkIssuanceRepository,
    private readonly templates: BulkTemplatesService,
    private readonly agents: AgentClients,
    private readonly shortUrls: ShortUrls,
    private readonly mail: MailOutbox,
    private readonly issuanceRecords: CredentialRecords,
    private readonly orgs: OrgsRepository,
    private readonly orgDids: OrgDidsRepository,
    private readonly modules: ModuleRegistry,
    private readonly queue: Queue,
    private readonly revocableOffers: RevocableOffers,
    @inject(BulkMetrics) private readonly metrics: BulkMetrics,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
  ) {
    this.queueName = `${config.queue.namePrefix}${BULK_QUEUE}`
    this.concurrency = sectionOf(config, bulkIssuanceConfig).concurrency
    this.logger = logger.child({ component: 'bulk-issuance' })
  }

  /**
   * Queues the request's `pending` rows and its `failed` ones (a retry), all or the selected row numbers; rows
   * already `queued` or `sent` are left as they are, so executing twice issues nothing twice.
   * @throws NotFoundError for an unknown request or template, or when the organization has no agent
   * @throws InvalidInputError for selected rows that do not exist or are invalid, or rows the override template refuses
   * @throws InvalidStateError when the organization's agent is not ready or it has no DID to issue with
   */
  public async execute(
    orgId: string,
    requestId: string,
    query: ExecuteQuery,
    body: ExecuteBody,
  ): Promise<BulkRequestView & { queuedNow: number }> {
    const request = await this.repository.findRequest(orgId, requestId)
    if (!request) throw new NotFoundError('Bulk issuance request not found')
    const template = await this.templates.resolve(orgId, request.schemaType, query.templateId ?? request.templateId)
    // The record id, whichever id named the template (a ledger id, a schema URL).
    const templateId = template.templateId
    await this.agents.forOrg(orgId)
    // An INDY credential's issuer is its definition's; a W3C one is signed with the primary DID.
    if (request.schemaType === 'W3C' && !(await this.orgDids.findPrimary(orgId))) {
      throw new InvalidStateError('The organization has no primary DID to issue with')
    }
    const selection = body.isSelectiveIssuance ? await this.checkSelection(requestId, body.selectedRows) : undefined
    // AnonCreds signs only the schema's names, so an INDY override is checked whatever the flag.
    if (templateId !== request.templateId && (query.isValidateSchema || request.schemaType === 'INDY')) {
      await this.checkAgainstTemplate(requestId, selection, template, query.isValidateSchema)
    }
    const { view, queued } = await this.repository.transactional(async () => {
      const locked = await this.repository.lockRequest(requestId)
      if (!locked) throw new NotFoundError('Bulk issuance request not found')
      const rows = await this.repository.queueRows(requestId, selection)
      if (rows.length > 0) {
        locked.status = 'running'
        locked.startedAt = new Date()
        locked.completedAt = null
        locked.executionOptions = {
          ...(body.clientId ? { clientId: body.clientId } : {}),
          ...(body.organizationLogoUrl ? { organizationLogoUrl: body.organizationLogoUrl } : {}),
          ...(body.platformName ? { platformName: body.platformName } : {}),
          ...(templateId !== locked.templateId ? { templateId } : {}),
        }
        if (body.fileName) locked.fileName = body.fileName.slice(0, 255)
        await this.repository.flush()
      }
      const current = viewOf(locked, await this.repository.countsByStatus(requestId))
      if (rows.length > 0) await this.modules.publish([platformEvent(BULK_STARTED, { orgId }, { ...current })])
      return { view: current, queued: rows }
    })
    this.metrics.rows.inc({ status: 'queued' }, queued.length)
    for (const row of queued) await this.enqueue({ rowId: row.id, requestId, orgId, execution: row.attempts })
    return { ...view, queuedNow: queued.length }
  }

  /** Starts the row consumer, then queues again every row a stopped process left `queued`. */
  public async start(): Promise<void> {
    await this.queue.consume<RowJob>(this.queueName, (message) => this.handle(message), {
      prefetch: this.concurrency,
      maxAttempts: ROW_JOB_ATTEMPTS,
      retryDelaysMs: ROW_JOB_RETRY_DELAYS_MS,
    })
    const rows = await this.repository.inOwnContext(() => this.repository.queuedRows())
    for (const row of rows) {
      await this.enqueue({ rowId: row.rowId, requestId: row.requestId, orgId: row.orgId, execution: row.attempts })
    }
    if (rows.length > 0) this.logger.info('Resumed bulk issuance rows', { rows: rows.length })
  }

  /** The request with its counts by status and one page of its rows. */
  public async progress(
    orgId: string,
    requestId: string,
    page: { pageNumber: number; pageSize: number; status?: BulkRowStatus },
  ): Promise<{ request: BulkRequestView; rows: [BulkRowView[], number] }> {
    const request = await this.repository.findRequest(orgId, requestId)
    if (!request) throw new NotFoundError('Bulk issuance request not found')
    const [rows, total] = await this.repository.rowsPage(requestId, page)
    return {
      request: viewOf(request, await this.repository.countsByStatus(requestId)),
      rows: [rows.map(rowViewOf), total],
    }
  }

  /** One row's job: at least once, so everything it does is keyed by the row. */
  public async handle(message: QueueMessage<RowJob>): Promise<void> {
    const job = message.payload
    await this.repository.inOwnContext(async () => {
      const row = await this.repository.findRow(job.rowId)
      // Done by an earlier delivery, deleted with its organization, or a job of an older execution.
      if (!row || row.status !== 'queued' || row.attempts !== job.execution) return
      const endTimer = this.metrics.rowDuration.startTimer()
      try {
        const context = await this.issuingContext(row.request)
        // A revocable definition's row gets its registry index here, once per delivery (an unused one is lost).
        const plan = await this.revocableOffers.prepare(job.orgId, offerPlanOf(context, row.attributes))
        const agent = await this.agents.forOrg(job.orgId)
        const made = await agent.offerCredentialOutOfBand({
          ...plan.format,
          comment: `${context.schemaName} from ${context.orgName}`,
        })
        const isSent = await this.markSent(job, made, plan.details, context)
        // Another delivery of the same job finishing first leaves this one's offer unused: not a row sent.
        endTimer({ result: isSent ? 'sent' : 'duplicate' })
        if (isSent) this.metrics.rows.inc({ status: 'sent' })
      } catch (error) {
        const isPermanent =
          error instanceof InvalidInputError || error instanceof NotFoundError || message.attempt >= ROW_JOB_ATTEMPTS
        if (!isPermanent) {
          endTimer({ result: 'retried' })
          throw error
        }
        const reason = error instanceof Error ? error.message.slice(0, 1000) : 'The offer failed'
        if (await this.markFailed(job, reason)) this.metrics.rows.inc({ status: 'failed' })
        endTimer({ result: 'failed' })
      }
    })
  }

  private async enqueue(job: RowJob): Promise<void> {
    // The id names the row's execution: a republished job (resume) is the same message, a retry a new one.
    await this.queue.publish(this.queueName, job, { id: `bulk-row:${job.rowId}:${job.execution}` })
  }

  private issuingContext(request: BulkRequest): Promise<IssuingContext> {
    const key = `${request.id}@${request.startedAt?.getTime() ?? 0}`
    let context = this.contexts.get(key)
    if (!context) {
      context = this.loadIssuingContext(request)
      this.contexts.set(key, context)
      // A failed lookup is not kept: the next row asks again.
      context.catch(() => this.contexts.delete(key))
    }
    return context
  }

  private async loadIssuingContext(request: BulkRequest): Promise<IssuingContext> {
    const orgId = request.organization.id
    const template = await this.templates.resolve(
      orgId,
      request.schemaType,
      request.executionOptions.templateId ?? request.templateId,
    )
    const organization = await this.orgs.findById(orgId)
    if (!organization) throw new NotFoundError('Organization not found')
    const common = { schemaName: template.name, orgName: organization.name, options: request.executionOptions }
    if (template.schemaType === 'INDY') {
      const agent = await this.agents.forOrg(orgId)
      return { ...common, indy: await agent.resolveCredentialDefinition(template.agentCredentialDefinitionId ?? '') }
    }
    const issuerDid = (await this.orgDids.findPrimary(orgId))?.did ?? null
    if (!issuerDid) throw new InvalidInputError('The organization has no primary DID to issue with')
    return { ...common, w3c: { schemaUrl: template.schemaLedgerId, issuerDid } }
  }

  /** Records the offer and mails it, unless another delivery of the job already did. @returns whether it did */
  private markSent(
    job: RowJob,
    made: OobCredentialOffer,
    details: RecordDetails,
    context: IssuingContext,
  ): Promise<boolean> {
    return this.repository.transactional(async () => {
      const request = await this.repository.lockRequest(job.requestId)
      const row = await this.repository.lockRow(job.rowId)
      if (!request || !row || row.status !== 'queued' || row.attempts !== job.execution) return false
      await this.issuanceRecords.applyOffer(job.orgId, made.credentialRecord, {
        ...details,
        outOfBandId: made.outOfBandRecord.id,
        emailId: row.email,
      })
      // Always short: a JSON-LD offer's own URL is several kilobytes, too long for a QR code and mail clients.
      const invitationUrl = await this.shortUrls.shorten(made.invitationUrl, { orgId: job.orgId })
      const message = await buildBulkOfferMail({
        to: row.email,
        orgName: context.orgName,
        invitationUrl,
        credentialName: credentialTypeName(context.schemaName),
        organizationLogoUrl: context.options.organizationLogoUrl,
        platformName: context.options.platformName,
      })
      await this.mail.add([{ idempotencyKey: `bulk-issuance:${job.requestId}:${row.rowNumber}`, message }])
      row.status = 'sent'
      row.error = null
      row.credentialRecordId = made.credentialRecord.id
      await this.repository.flush()
      await this.completeIfDone(request)
      return true
    })
  }

  private markFailed(job: RowJob, reason: string): Promise<boolean> {
    return this.repository.transactional(async () => {
      const request = await this.repository.lockRequest(job.requestId)
      const row = await this.repository.lockRow(job.rowId)
      if (!request || !row || row.status !== 'queued' || row.attempts !== job.execution) return false
      row.status = 'failed'
      row.error = reason
      await this.repository.flush()
      await this.completeIfDone(request)
      return true
    })
  }

  /** In the transaction holding the request's lock: the last row done completes the request. */
  private async completeIfDone(request: BulkRequest): Promise<void> {
    if (request.status !== 'running' || (await this.repository.countRemaining(request.id)) > 0) return
    request.status = 'completed'
    request.completedAt = new Date()
    await this.repository.flush()
    const view = viewOf(request, await this.repository.countsByStatus(request.id))
    await this.modules.publish([platformEvent(BULK_COMPLETED, { orgId: request.organization.id }, { ...view })])
  }

  private async checkSelection(requestId: string, selectedRows: number[] | undefined): Promise<number[]> {
    if (!selectedRows || selectedRows.length === 0) {
      throw new InvalidInputError('isSelectiveIssuance needs selectedRows', [
        { field: 'selectedRows', message: 'must list at least one row number' },
      ])
    }
    const unique = [...new Set(selectedRows)]
    const statuses = await this.repository.rowStatuses(requestId, unique)
    const errors: FieldError[] = []
    for (const rowNumber of unique) {
      const status = statuses.get(rowNumber)
      if (!status) errors.push({ field: `selectedRows`, message: `row ${rowNumber} is not a data row of the file` })
      else if (status === 'invalid') errors.push({ field: `selectedRows`, message: `row ${rowNumber} is invalid` })
    }
    if (errors.length > 0) {
      throw new InvalidInputError(
        `Some selected rows cannot be issued: ${errors
          .slice(0, 20)
          .map((error) => error.message)
          .join('; ')}`,
        errors.slice(0, 100),
      )
    }
    return unique
  }

  /**
   * With a template override, the rows to issue must also pass the override's template: its required columns and,
   * with `isValidateSchema`, its types and constraints; for INDY also no attribute outside its schema.
   */
  private async checkAgainstTemplate(
    requestId: string,
    selection: number[] | undefined,
    template: ResolvedTemplate,
    isValidateSchema: boolean,
  ): Promise<void> {
    const checker = new RowChecker(
      template.attributeColumns,
      isValidateSchema ? template.validator : undefined,
      template.typedCells,
    )
    const known = new Set(template.attributeColumns.map((column) => column.name))
    const rows = await this.repository.rowsToQueue(requestId, selection)
    const errors: FieldError[] = []
    for (const row of rows) {
      const cells = Object.fromEntries(Object.entries(row.attributes).map(([key, value]) => [key, cellText(value)]))
      const problems = checker.check({ ...cells, email: row.email }).problems
      if (template.schemaType === 'INDY') {
        for (const name of Object.keys(row.attributes))
          if (!known.has(name)) problems.push({ column: name, reason: 'is not an attribute of the schema' })
      }
      for (const problem of problems) {
        errors.push({ field: `row ${row.rowNumber}, column ${problem.column}`, message: problem.reason })
      }
    }
    if (errors.length > 0) {
      throw new InvalidInputError(
        `${errors.length} value(s) do not match the template ${template.templateId}`,
        errors.slice(0, 100),
      )
    }
  }
}

/**
 * The offer of one row. W3C: the JSON-LD credential of its values, signed with the organization's primary DID.
 * INDY: an AnonCreds offer with every attribute of the schema (an empty optional cell is an empty value).
 */
export function offerPlanOf(context: IssuingContext, attributes: Record<string, unknown>): OfferPlan {
  if (context.indy) {
    const values = context.indy.schema.attrNames.map((name) => ({ name, value: cellText(attributes[name]) }))
    return indyPlan(context.indy, { attributes: values }, 'v2')
  }
  const credential = bulkCredential({
    schemaUrl: context.w3c.schemaUrl,
    schemaName: context.schemaName,
    issuerDid: context.w3c.issuerDid,
    attributes,
  })
  return jsonLdPlan({ credential, options: { ...BULK_SIGNING_OPTIONS } })
}

/** A stored value back as the text of its cell (arrays and objects as JSON; absent as empty). */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}
