import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidStateError } from '@idplane/common'
import type { AgentExit } from '../../agent-runtime/agent-runtime'
import type { Organization } from '../orgs/organization.entity'
import { OrgAgent } from './org-agent.entity'
import type { AgentStatus } from './org-agent.states'
import type { SealedAgentSecrets } from './agent-secrets'
import { OrgRepository } from '../../infra/db/base.repository'
import { RecentReads, SHARED_ROW_REUSE_MS } from '../../infra/db/recent-reads'

/** Agent records remembered for calls and event authentication (a bound on memory, not an expected count). */
const AGENTS_REMEMBERED = 10_000

/** Transaction-scoped advisory lock key serializing the agent quota check with the insert it guards. */
const AGENT_QUOTA_LOCK_KEY = 734_120_901

/** The fields a spin-up sets on a new or retried agent. */
export type AgentSpinUpFields = Pick<OrgAgent, 'label' | 'didMethod'> & { domain: string | null }

type AgentChanges = Partial<
  Pick<OrgAgent, 'status' | 'failureReason' | 'adminPort' | 'inboundPort' | 'controllerEndpoint'>
>

/** An agent record as a call to the agent reads it (AgentsRepository.addressOf). */
export interface AgentAddressRow {
  status: AgentStatus
  controllerEndpoint: string | null
  encryptedApiKey: string
}

/** The organization whose agent holds an event token, and the token's stored hash. */
export interface EventTokenOwner {
  organizationId: string
  eventTokenHash: string
}

/**
 * Storage of organizations' agents: every query of the agents module. An organization has at most one agent,
 * so lookups and changes take the organization id first.
 */
@injectable()
export class AgentsRepository extends OrgRepository<OrgAgent> {
  /** addressOf's rows, reused for SHARED_ROW_REUSE_MS: every call the API makes to an agent needs one. */
  private readonly recentAddresses = new RecentReads<string, AgentAddressRow>(
    SHARED_ROW_REUSE_MS,
    AGENTS_REMEMBERED,
    () => this.em.isInTransaction(),
  )
  /** findByEventTokenHash's rows, by token hash, reused alike: every event request an agent sends needs one. */
  private readonly recentTokenOwners = new RecentReads<string, EventTokenOwner>(
    SHARED_ROW_REUSE_MS,
    AGENTS_REMEMBERED,
    () => this.em.isInTransaction(),
  )

  public constructor(em: EntityManager) {
    super(em, OrgAgent)
  }

  public async findForOrg(orgId: string): Promise<OrgAgent | null> {
    return this.em.findOne(OrgAgent, { organization: orgId })
  }

  /**
   * What a call to the organization's agent needs of its record (status, admin endpoint, sealed API key); null when
   * it has none. One plain statement, no entity, read at most SHARED_ROW_REUSE_MS ago (recent-reads.ts): it runs
   * before every call the API makes to an agent.
   */
  public addressOf(orgId: string): Promise<AgentAddressRow | null> {
    // Inside a transaction (an agent event's handler calling the agent), never joined to a read made outside it.
    return this.recentAddresses.get(orgId, () => this.readAddress(orgId))
  }

  /**
   * What this process remembers of the organization's agent record is read again: after its own writes, and when the
   * record is deleted with its organization.
   */
  public forgetRecent(orgId: string): void {
    this.recentAddresses.forget(orgId)
    // Token owners are remembered by hash, and the record's is not at hand: all are read again (writes are rare).
    this.recentTokenOwners.clear()
  }

  private async readAddress(orgId: string): Promise<AgentAddressRow | null> {
    const rows = await this.em.execute<
      { status: AgentStatus; controller_endpoint: string | null; encrypted_api_key: string }[]
    >('select status, controller_endpoint, encrypted_api_key from org_agents where organization_id = ?', [orgId])
    const row = rows[0]
    if (!row) return null
    return { status: row.status, controllerEndpoint: row.controller_endpoint, encryptedApiKey: row.encrypted_api_key }
  }

  /** A fresh read, outside any identity map (background provisioning sees other writers' changes). */
  public async findFreshForOrg(orgId: string): Promise<OrgAgent | null> {
    return this.em.fork().findOne(OrgAgent, { organization: orgId })
  }

  public async findByRuntime(runtime: OrgAgent['runtime'], statuses: readonly AgentStatus[]): Promise<OrgAgent[]> {
    return this.em.fork().find(OrgAgent, { runtime, status: { $in: [...statuses] } }, { orderBy: { createdAt: 'asc' } })
  }

  /**
   * Inserts the organization's agent (PENDING). A second insert for the organization fails on the unique
   * organization_id (409 from the error handler).
   */
  public async create(
    organization: Organization,
    runtime: OrgAgent['runtime'],
    fields: AgentSpinUpFields,
    secrets: SealedAgentSecrets,
  ): Promise<OrgAgent> {
    const agent = this.em.create(OrgAgent, { organization, runtime, ...fields, ...secrets })
    await this.em.flush()
    this.forgetRecent(organization.id)
    return agent
  }

  /** FAILED → PENDING in one conditional statement, so of concurrent retries exactly one wins. */
  public async retryFailed(orgId: string, fields: AgentSpinUpFields, encryptedSeed: string | null): Promise<boolean> {
    const updated = await this.em.nativeUpdate(
      OrgAgent,
      { organization: orgId, status: 'FAILED' },
      { ...fields, encryptedSeed, status: 'PENDING', failureReason: null, controllerEndpoint: null },
    )
    this.forgetRecent(orgId)
    return updated === 1
  }

  /** Agents of a runtime that are meant to run (every status but FAILED). */
  public async countActive(runtime: OrgAgent['runtime']): Promise<number> {
    return this.em.count(OrgAgent, { runtime, status: { $ne: 'FAILED' } })
  }

  /** Runs `work` in a transaction that holds the platform-wide agent quota lock (count and insert together). */
  public async withQuotaLock<T>(work: () => Promise<T>): Promise<T> {
    return this.em.transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(?)', [AGENT_QUOTA_LOCK_KEY])
      return work()
    })
  }

  public async update(orgId: string, changes: AgentChanges): Promise<void> {
    await this.em.fork().nativeUpdate(OrgAgent, { organization: orgId }, changes)
    this.forgetRecent(orgId)
  }

  /** Moves the status only from `from` (the state table's order holds under concurrent writers). */
  public async moveStatus(orgId: string, from: AgentStatus, to: AgentStatus): Promise<boolean> {
    const moved = await this.em.fork().nativeUpdate(OrgAgent, { organization: orgId, status: from }, { status: to })
    this.forgetRecent(orgId)
    return moved === 1
  }

  public async setEventTokenHash(orgId: string, eventTokenHash: string): Promise<void> {
    await this.em.fork().nativeUpdate(OrgAgent, { organization: orgId }, { eventTokenHash })
    this.forgetRecent(orgId)
  }

  /** One more restart and the exit that caused it. */
  public async recordExit(orgId: string, exit: AgentExit): Promise<void> {
    await this.em
      .fork()
      .getConnection()
      .execute(
        'update org_agents set restarts = restarts + 1, last_exit_code = ?, last_exit_signal = ?, last_exit_at = ?, updated_at = ? where organization_id = ?',
        [exit.code, exit.signal, exit.at, new Date(), orgId],
      )
  }

  /**
   * Claims the agent for a step that calls it, when it is in `status` and no unexpired claim is held: one
   * short statement, no transaction left open. True when this caller holds the claim.
   */
  public async claim(orgId: string, status: AgentStatus, token: string, leaseMs: number): Promise<boolean> {
    const now = new Date()
    const updated = await this.em
      .fork()
      .nativeUpdate(
        OrgAgent,
        { organization: orgId, status, $or: [{ claimExpiresAt: null }, { claimExpiresAt: { $lt: now } }] },
        { claimToken: token, claimExpiresAt: new Date(now.getTime() + leaseMs) },
      )
    return updated === 1
  }

  public async releaseClaim(orgId: string, token: string): Promise<void> {
    await this.em
      .fork()
      .nativeUpdate(OrgAgent, { organization: orgId, claimToken: token }, { claimToken: null, claimExpiresAt: null })
  }

  /**
   * Records a claimed step's result in one short transaction: the status moves and `work` runs only while
   * `token` still holds the claim. False when the claim was lost (expired and taken by another worker).
   */
  public async completeClaim(
    orgId: string,
    token: string,
    status: AgentStatus,
    work: () => Promise<void>,
  ): Promise<boolean> {
    const completed = await this.em.fork().transactional(async (em) => {
      const updated = await em.nativeUpdate(
        OrgAgent,
        { organization: orgId, claimToken: token },
        { status, claimToken: null, claimExpiresAt: null },
      )
      if (updated !== 1) return false
      await work()
      return true
    })
    this.forgetRecent(orgId)
    return completed
  }

  public async countByStatus(): Promise<Partial<Record<AgentStatus, number>>> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<
        { status: AgentStatus; count: string | number }[]
      >('select status, count(*) as count from org_agents group by status')
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]))
  }

  /**
   * The organization whose agent holds the event token with this hash (agent events' authentication), as read at
   * most SHARED_ROW_REUSE_MS ago: a token replaced on another replica is refused within that time.
   */
  public async findByEventTokenHash(eventTokenHash: string): Promise<EventTokenOwner | undefined> {
    return (await this.recentTokenOwners.get(eventTokenHash, () => this.readTokenOwner(eventTokenHash))) ?? undefined
  }

  private async readTokenOwner(eventTokenHash: string): Promise<EventTokenOwner | null> {
    const rows = await this.em
      .getConnection()
      .execute<
        { organization_id: string; event_token_hash: string }[]
      >('select organization_id, event_token_hash from org_agents where event_token_hash = ?', [eventTokenHash])
    const row = rows[0]
    return row ? { organizationId: row.organization_id, eventTokenHash: row.event_token_hash } : null
  }

  /** Drops a process-runtime agent's schema in the platform database (its data, when the API runs on PostgreSQL). */
  public async dropAgentSchema(orgId: string, schema: string): Promise<void> {
    // The name comes from the organization id (shortOrgId), never from input; quoted as an identifier anyway.
    if (!/^agent_[0-9a-f]{1,12}$/.test(schema)) throw new InvalidStateError(`Not an agent schema of ${orgId}`)
    await this.em.fork().getConnection().execute(`drop schema if exists "${schema}" cascade`)
  }
}
