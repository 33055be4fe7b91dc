import { inject, injectable, optional } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import {
  ConflictError,
  InProgressError,
  InvalidInputError,
  Logger,
  NotFoundError,
  UpstreamError,
} from '@idplane/common'
import type { AnonCredsCredentialDefinitionResponse } from '@idplane/common/agent-contract/admin-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { Queue, type QueueMessage } from '../../infra/queue/queue'
import { TOKENS } from '../../infra/tokens'
import type { OrgCaller } from '../memberships/org-caller.decorator'
import { SchemasRepository } from '../schemas/schemas.repository'
import { hasControlCharacter } from '@idplane/common/request-input'
import {
  credDefIdForms,
  legacyCredDefId,
  namespaceOfDid,
  schemaIdForms,
  type LedgerIdForms,
} from '@idplane/common/ledger-ids'
import { IndyIssuers } from '../schemas/indy-issuers'
import { CredDefMetrics, type CredDefJobOutcome } from './cred-def-metrics'
import { credDefsConfig } from './cred-defs.config'
import { DefinitionsLedger } from './definitions-ledger'
import { CredDefsRepository, type CredDefPageQuery } from './cred-defs.repository'
import type { CredentialDefinition } from './credential-definition.entity'
import { RECREATABLE_CRED_DEF_STATUS } from './credential-definition.states'
import { REVOCATION_SETUP, type RevocationSetup } from './revocation-setup'

/** The queue of key-generation jobs (prefixed with QUEUE_NAME_PREFIX). */
export const CRED_DEF_QUEUE = 'cred-def-creation'
/** A job is tried this many times (agent unreachable, restarting or busy; database busy) before the record is `failed`; the delays cover an agent restarting with the API (tens of seconds on a loaded machine). */
export const CRED_DEF_JOB_ATTEMPTS = 6
export const CRED_DEF_JOB_RETRY_DELAYS_MS = [2_000, 10_000, 30_000, 60_000, 120_000]
/** Tags are a part of the ledger id, whose parts ':' and '/' separate; no spaces or control characters. */
const TAG = /^[^:/\s]+$/
/** How long an offer waits for a definition still `creating` before answering 409 with Retry-After (issue 22 item 3). */
export const OFFER_WAIT_FOR_CREATING_MS = 3_000
const OFFER_WAIT_POLL_MS = 250
/** The Retry-After of that 409: key generation takes seconds to a minute on a loaded machine. */
export const CREATING_RETRY_AFTER_SECONDS = 10
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface CredDefJob {
  credDefId: string
  orgId: string
  /** The record's execution (CredentialDefinition.execution); a job of an older execution is stale. */
  execution: number
}

export interface CreateCredDefInput {
  tag: string
  schemaLedgerId: string
  revocable?: boolean
  orgDid?: string
}

/**
 * INDY credential definitions: the request stores the record (`creating`) and queues a job; the job has the
 * organization's agent generate the keys and register the definition through its AnonCreds registry, then records
 * the ledger id (`created`) or the reason (`failed`). The job is at least once and survives restarts: it first
 * looks for a definition the agent already registered for the schema, tag and issuer, so a job that ran when its
 * process died never makes a second one (docs/decisions.md, INDY schemas and credential definitions).
 */
@injectable()
export class CredDefsService {
  private readonly queueName: string
  private readonly jobTimeoutMs: number
  private readonly concurrency: number
  private readonly logger: Logger

  public constructor(
    private readonly repository: CredDefsRepository,
    private readonly issuers: IndyIssuers,
    private readonly agents: AgentClients,
    private readonly queue: Queue,
    private readonly schemas: SchemasRepository,
    private readonly ledger: DefinitionsLedger,
    @inject(CredDefMetrics) private readonly metrics: CredDefMetrics,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
    @inject(REVOCATION_SETUP) @optional() private readonly revocationSetup?: RevocationSetup,
  ) {
    this.queueName = `${config.queue.namePrefix}${CRED_DEF_QUEUE}`
    const section = sectionOf(config, credDefsConfig)
    this.jobTimeoutMs = section.jobTimeoutMs
    this.concurrency = section.concurrency
    this.logger = logger.child({ component: 'cred-defs' })
  }

  /**
   * Stores the record and queues its key generation; answers at once with the `creating` record. A `failed`
   * record of the same schema and tag is tried again rather than refused.
   * @throws InvalidInputError for a malformed tag or schema id, or no Indy DID to publish with
   * @throws NotFoundError when the schema is on no ledger the agent reads, or the organization has no agent
   * @throws ConflictError when the organization has a definition of that schema and tag
   */
  public async create(orgId: string, caller: OrgCaller, input: CreateCredDefInput): Promise<CredentialDefinition> {
    if (!TAG.test(input.tag) || hasControlCharacter(input.tag))
      throw new InvalidInputError('tag must not contain ":", "/" or spaces (it is a part of the ledger id)', [
        { field: 'tag', message: 'is malformed' },
      ])
    const givenSchemaIds = schemaIdForms(input.schemaLedgerId)
    if (!givenSchemaIds)
      throw new InvalidInputError(
        'schemaLedgerId must be a ledger schema id: <did>:2:<name>:<version> or did:indy:<namespace>:<did>/anoncreds/v0/SCHEMA/<name>/<version>',
        [{ field: 'schemaLedgerId', message: 'is malformed' }],
      )
    const conflict = () =>
      new ConflictError(
        `A credential definition of schema ${input.schemaLedgerId} with tag ${input.tag} already exists in this organization`,
      )
    // A repeated request is answered from our records, whatever the agent's state (it may be restarting); the
    // locked check below still decides between concurrent ones.
    if (await this.repository.hasLive(orgId, givenSchemaIds.legacy, input.tag)) throw conflict()
    const agent = await this.agents.forOrg(orgId)
    // Quick (a registry read), unlike the key generation: an absent schema is a 404 now rather than a failed job.
    await agent.getAnonCredsSchema(input.schemaLedgerId)
    const publisherDid = await this.issuerFor(orgId, input)
    // Both forms resolve to one record: it keeps the legacy ids (spec) and the did:indy ones beside them.
    const schemaIds = schemaIdForms(input.schemaLedgerId, namespaceOfDid(publisherDid)) as LedgerIdForms
    const ids = await this.expectedIds(publisherDid, schemaIds.legacy, input.tag)
    let definition: CredentialDefinition
    try {
      definition = await this.repository.transactional(async () => {
        const existing = await this.repository.lockBySchemaTag(orgId, schemaIds.legacy, input.tag)
        if (existing && existing.status !== RECREATABLE_CRED_DEF_STATUS) throw conflict()
        const fields = {
          schemaLedgerId: schemaIds.legacy,
          schemaDidIndyId: schemaIds.didIndy,
          credentialDefinitionId: ids?.legacy ?? null,
          credentialDefinitionDidIndyId: ids?.didIndy ?? null,
          publisherDid,
          createdBy: caller.userId,
        }
        const revocable = input.revocable === true
        if (!existing) return this.repository.add(orgId, { ...fields, tag: input.tag, revocable })
        Object.assign(existing, { ...fields, revocable })
        existing.status = 'creating'
        existing.error = null
        existing.execution += 1
        await this.repository.flush()
        return existing
      })
    } catch (error) {
      // Two concurrent creations of one schema and tag: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw conflict()
      throw error
    }
    try {
      await this.enqueue({ credDefId: definition.id, orgId, execution: definition.execution })
    } catch (error) {
      // Not queued: failed now, so that the caller may simply ask again.
      await this.markFailed(definition.id, definition.execution, 'The key-generation job could not be queued')
      throw error
    }
    return definition
  }

  public list(orgId: string, query: CredDefPageQuery): Promise<[CredentialDefinition[], number]> {
    return this.repository.list(orgId, query)
  }

  /**
   * One of the organization's definitions by ledger id (either form), or by record id (to follow a `creating` one).
   * @throws InvalidInputError for a blank or malformed id
   * @throws NotFoundError when the organization has none with it
   */
  public async get(orgId: string, credDefId: string): Promise<CredentialDefinition> {
    const id = credDefId.trim()
    let found: CredentialDefinition | null
    if (UUID.test(id)) {
      found = await this.repository.findForOrg(orgId, { id: id.toLowerCase() })
    } else {
      const forms = credDefIdForms(id)
      if (!forms)
        throw new InvalidInputError(
          'credDefId must be a ledger credential definition id (<did>:3:CL:<schemaSeqNo>:<tag> or its did:indy form) or a record id',
          [{ field: 'credDefId', message: 'is malformed' }],
        )
      found = await this.repository.findForOrg(orgId, { credentialDefinitionId: forms.legacy })
    }
    if (!found) throw new NotFoundError('This organization has no credential definition with this id')
    return found
  }

  /**
   * The id an offer gives the agent for `credDefId` (either form): for one of the organization's definitions the
   * form the agent registered it under (its did:indy id when it has one), the legacy form for v1 (the `indy` format
   * carries only that); an id of no definition of the organization as given (the agent's registry decides). A
   * definition still `creating` is waited for briefly (issue 22 item 3).
   * @throws InProgressError while its keys are still being generated (409 with Retry-After)
   * @throws ConflictError when its creation failed
   */
  public async idForOffer(orgId: string, credDefId: string, protocolVersion: 'v1' | 'v2'): Promise<string> {
    const forms = credDefIdForms(credDefId)
    // Not an Indy id (another registry's): the agent resolves it or answers 404.
    if (!forms) return credDefId
    let definition = await this.repository.findForOrg(orgId, { credentialDefinitionId: forms.legacy })
    const deadline = Date.now() + OFFER_WAIT_FOR_CREATING_MS
    while (definition?.status === 'creating' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, OFFER_WAIT_POLL_MS))
      definition = await this.repository.findForOrg(orgId, { credentialDefinitionId: forms.legacy }, true)
    }
    if (definition?.status === 'creating')
      throw new InProgressError(
        `Credential definition ${forms.legacy} is still being created (its keys are being generated); try again shortly`,
        CREATING_RETRY_AFTER_SECONDS,
      )
    if (definition?.status === 'failed')
      throw new ConflictError(
        `The creation of credential definition ${forms.legacy} failed (${definition.error ?? 'no reason given'}); create it again`,
      )
    if (protocolVersion === 'v1') return forms.legacy
    if (definition) return definition.credentialDefinitionDidIndyId ?? forms.legacy
    return credDefId
  }

  /** Starts the job consumer, then queues again every definition a stopped process left `creating`. */
  public async start(): Promise<void> {
    await this.queue.consume<CredDefJob>(this.queueName, (message) => this.handle(message), {
      prefetch: this.concurrency,
      maxAttempts: CRED_DEF_JOB_ATTEMPTS,
      retryDelaysMs: CRED_DEF_JOB_RETRY_DELAYS_MS,
    })
    const unfinished = await this.repository.inOwnContext(() => this.repository.creating())
    for (const definition of unfinished) {
      await this.enqueue({
        credDefId: definition.id,
        orgId: definition.organization.id,
        execution: definition.execution,
      })
    }
    if (unfinished.length > 0) this.logger.info('Resumed credential definition jobs', { jobs: unfinished.length })
  }

  /** One job run: at least once, and idempotent through the agent's own list of definitions. */
  public async handle(message: QueueMessage<CredDefJob>): Promise<void> {
    const job = message.payload
    const endTimer = this.metrics.jobDuration.startTimer()
    const finish = (outcome: CredDefJobOutcome) => {
      endTimer({ outcome })
      this.metrics.jobs.inc({ outcome })
    }
    await this.repository.inOwnContext(async () => {
      const definition = await this.repository.findById(job.credDefId)
      if (!definition || definition.status !== 'creating' || definition.execution !== job.execution)
        return finish('stale')
      try {
        const agent = (await this.agents.forOrg(job.orgId)).withTimeout(this.jobTimeoutMs)
        const registered = await this.registered(agent, definition)
        const ledgerId = registered?.credentialDefinitionId ?? (await this.register(agent, definition))
        if (definition.revocable) {
          if (!this.revocationSetup) throw new UpstreamError('Revocation registries are not available in this process')
          await this.revocationSetup.ensureFirstRegistry(agent, definition, ledgerId)
        }
        const isDone = await this.markCreated(job, ledgerId)
        finish(isDone ? (registered ? 'adopted' : 'created') : 'stale')
      } catch (error) {
        const isPermanent =
          error instanceof InvalidInputError ||
          error instanceof NotFoundError ||
          message.attempt >= CRED_DEF_JOB_ATTEMPTS
        if (!isPermanent) {
          finish('retried')
          throw error
        }
        const reason = error instanceof Error ? error.message.slice(0, 1000) : 'The key generation failed'
        await this.markFailed(job.credDefId, job.execution, reason)
        finish('failed')
      }
    })
  }

  /** The publishing DID: `orgDid`, else the issuer of the organization's own record of the schema, else IndyIssuers. */
  private async issuerFor(orgId: string, input: CreateCredDefInput): Promise<string> {
    if (input.orgDid !== undefined) return (await this.issuers.issuerFor(orgId, input.orgDid)) as string
    const ownSchema = await this.schemas.findIndyByLedgerId(
      orgId,
      schemaIdForms(input.schemaLedgerId)?.legacy ?? input.schemaLedgerId,
    )
    const issuer = ownSchema?.issuerId ?? (await this.issuers.issuerFor(orgId, undefined))
    if (!issuer)
      throw new InvalidInputError(
        'The organization has no Indy DID to publish the credential definition with: pass orgDid, make an Indy DID ' +
          'its primary DID, or create an INDY schema first',
        [{ field: 'orgDid', message: 'is required while the organization has no Indy DID' }],
      )
    return issuer
  }

  /** A definition the agent already registered for the record's schema, tag and issuer (a job run that was cut). */
  private async registered(
    agent: AgentClient,
    definition: CredentialDefinition,
  ): Promise<AnonCredsCredentialDefinitionResponse | undefined> {
    const created = await agent.listAnonCredsCredentialDefinitions()
    // The agent names the schema in the form it was given: compared by the legacy form.
    return created.find(
      (entry) =>
        schemaIdForms(entry.credentialDefinition.schemaId)?.legacy === definition.schemaLedgerId &&
        entry.credentialDefinition.tag === definition.tag &&
        entry.credentialDefinition.issuerId === definition.publisherDid,
    )
  }

  private async register(agent: AgentClient, definition: CredentialDefinition): Promise<string> {
    try {
      // A did:indy publisher names the schema by its did:indy id (what Credo's anoncreds format expects of it).
      const made = await agent.createAnonCredsCredentialDefinition({
        schemaId: definition.schemaDidIndyId ?? definition.schemaLedgerId,
        issuerId: definition.publisherDid,
        tag: definition.tag,
        ...(definition.revocable ? { supportRevocation: true } : {}),
      })
      return made.credentialDefinitionId
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error
      // The identifier is taken: by this definition when another run of the job got there first.
      const registered = await this.registered(agent, definition)
      if (registered) return registered.credentialDefinitionId
      // Maybe that run has not stored it yet: retried (a 409 the last time).
      throw new UpstreamError(`The registry holds another credential definition under this id: ${error.message}`)
    }
  }

  private markCreated(job: CredDefJob, ledgerId: string): Promise<boolean> {
    return this.repository.transactional(async () => {
      const definition = await this.repository.lock(job.credDefId)
      if (!definition || definition.status !== 'creating' || definition.execution !== job.execution) return false
      const forms = credDefIdForms(ledgerId, namespaceOfDid(definition.publisherDid))
      definition.status = 'created'
      definition.credentialDefinitionId = forms?.legacy ?? ledgerId
      definition.credentialDefinitionDidIndyId = forms?.didIndy ?? null
      definition.error = null
      await this.repository.flush()
      return true
    })
  }

  private markFailed(credDefId: string, execution: number, reason: string): Promise<boolean> {
    return this.repository.transactional(async () => {
      const definition = await this.repository.lock(credDefId)
      if (!definition || definition.status !== 'creating' || definition.execution !== execution) return false
      definition.status = 'failed'
      definition.error = reason
      await this.repository.flush()
      return true
    })
  }

  /**
   * The definition's ids before its keys exist (issue 22 item 3): the publisher's DID, the schema's sequence number
   * and the tag make them. The platform ledger knows the sequence number; for a schema of another registry (the
   * agents' test registry) it is undefined, and the ids come when the definition is registered.
   */
  private async expectedIds(publisherDid: string, schemaId: string, tag: string): Promise<LedgerIdForms | undefined> {
    const did = publisherDid.split(':').pop() ?? ''
    const seqNo = await this.ledger.schemaSeqNo(schemaId)
    if (seqNo === undefined) return undefined
    return credDefIdForms(legacyCredDefId({ did, schemaSeqNo: seqNo, tag }), namespaceOfDid(publisherDid))
  }

  private async enqueue(job: CredDefJob): Promise<void> {
    // The id names the record's execution: a republished job (resume) is the same message.
    await this.queue.publish(this.queueName, job, { id: `cred-def:${job.credDefId}:${job.execution}` })
  }
}
