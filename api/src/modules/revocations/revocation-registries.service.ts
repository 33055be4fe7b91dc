import { inject, injectable } from 'inversify'
import { InProgressError, Logger, UpstreamError } from '@idplane/common'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { CredDefsRepository } from '../cred-defs/cred-defs.repository'
import type { CredentialDefinition } from '../cred-defs/credential-definition.entity'
import type { RevocationSetup } from '../cred-defs/revocation-setup'
import { RevocationRegistriesRepository, type AllocatedIndex } from './revocation-registries.repository'
import type { RevocationRegistry } from './revocation-registry.entity'
import { revocationsConfig } from './revocations.config'

/** A registry more used than this (share of its indices given out) has its successor made ahead of need. */
export const ROLLOVER_THRESHOLD = 0.8
/** How often an offer that found no free index looks again while another process makes the next registry. */
const WAIT_POLL_MS = 200

/** True when the allocation is the registry's last index or past ROLLOVER_THRESHOLD of them. Pure. */
export function needsSuccessor(allocated: Pick<AllocatedIndex, 'index' | 'size' | 'isLast'>): boolean {
  return allocated.isLast || allocated.index >= Math.ceil(ROLLOVER_THRESHOLD * (allocated.size - 1))
}

/**
 * The revocation registries of the organizations' revocable credential definitions (issue 25 item 3): the first
 * one, made by the definition job (RevocationSetup), the indices offers get, and the next registry, made once per
 * registry (a claim on its row) as soon as it is ROLLOVER_THRESHOLD used, so issuance never waits in the common case;
 * an offer that finds every index taken waits for that registry (or makes it) rather than fail.
 */
@injectable()
export class RevocationRegistries implements RevocationSetup {
  private readonly size: number
  private readonly timeoutMs: number
  private readonly logger: Logger
  /** Successors this process is making, by credential definition record id: concurrent offers share one. */
  private readonly rollovers = new Map<string, Promise<void>>()

  public constructor(
    private readonly repository: RevocationRegistriesRepository,
    private readonly credDefs: CredDefsRepository,
    private readonly agents: AgentClients,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
  ) {
    const section = sectionOf(config, revocationsConfig)
    this.size = section.registrySize
    this.timeoutMs = section.registryTimeoutMs
    this.logger = logger.child({ component: 'revocations' })
  }

  public async ensureFirstRegistry(
    agent: AgentClient,
    definition: CredentialDefinition,
    credentialDefinitionId: string,
  ): Promise<void> {
    const orgId = definition.organization.id
    if (await this.repository.newest(orgId, definition.id)) return
    await this.createRegistry(agent, orgId, definition.id, credentialDefinitionId)
  }

  /** The organization's revocable definition `credentialDefinitionId` (legacy form) names, if it is one. */
  public async revocableDefinition(
    orgId: string,
    credentialDefinitionId: string,
  ): Promise<CredentialDefinition | undefined> {
    const definition = await this.credDefs.findForOrg(orgId, { credentialDefinitionId })
    return definition?.revocable ? definition : undefined
  }

  /**
   * An index for one offer of the organization's revocable `definition`, never given to another; it is lost, never
   * reused, when the offer then fails.
   * @throws InProgressError when no registry had a free index within REVOCATION_REGISTRY_TIMEOUT_MS
   */
  public async allocate(orgId: string, definition: CredentialDefinition): Promise<AllocatedIndex> {
    const { credentialDefinitionId } = definition
    const deadline = Date.now() + this.timeoutMs
    let lastFailure: string | undefined
    for (;;) {
      const allocated = await this.repository.allocateIndex(orgId, definition.id)
      if (allocated) {
        if (needsSuccessor(allocated))
          // Ahead of need: this offer goes out now; the next registry is ready before this one runs out.
          void this.rollOver(orgId, definition).catch((error: unknown) =>
            this.logger.warn('Making the next revocation registry failed; the next offer tries again', {
              credentialDefinitionId,
              error: error instanceof Error ? error.message : String(error),
            }),
          )
        return allocated
      }
      if (Date.now() > deadline)
        throw new InProgressError(
          `Every revocation registry of ${credentialDefinitionId} is full and the next one is not ready yet` +
            `${lastFailure ? ` (${lastFailure})` : ''}; try again shortly`,
          10,
        )
      try {
        await this.rollOver(orgId, definition)
      } catch (error) {
        // Its claim is released: this offer (or another) tries again, until the deadline.
        lastFailure = error instanceof Error ? error.message : String(error)
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS))
      }
    }
  }

  /** Waits for the next registries this process is making (the module's stop, before the database closes). */
  public async stop(): Promise<void> {
    await Promise.allSettled([...this.rollovers.values()])
  }

  /** Makes the definition's next registry unless one is ready; one run per definition in this process at a time. */
  private rollOver(orgId: string, definition: CredentialDefinition): Promise<void> {
    const running = this.rollovers.get(definition.id)
    if (running) return running
    const work = this.repository
      .inOwnContext(() => this.makeSuccessor(orgId, definition))
      .finally(() => this.rollovers.delete(definition.id))
    this.rollovers.set(definition.id, work)
    return work
  }

  private async makeSuccessor(orgId: string, definition: CredentialDefinition): Promise<void> {
    const newest = await this.repository.newest(orgId, definition.id)
    if (!newest) throw new UpstreamError(`Credential definition ${definition.credentialDefinitionId} has no registry`)
    const used = newest.nextIndex - 1
    // A successor already made (by this process or another) is the newest: nothing to do.
    if (newest.state === 'active' && !needsSuccessor({ index: used, size: newest.size, isLast: false })) return
    if (!(await this.repository.claimSuccessor(newest.id, this.timeoutMs))) {
      // Another process makes it: the caller looks for a free index again shortly.
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS))
      return
    }
    try {
      const agent = await this.agents.forOrg(orgId)
      const agentCredDefId = definition.credentialDefinitionDidIndyId ?? definition.credentialDefinitionId
      if (!agentCredDefId) throw new UpstreamError('The credential definition has no ledger id yet')
      const made = await this.createRegistry(agent, orgId, definition.id, agentCredDefId)
      this.logger.info('Made the next revocation registry', {
        revocationRegistryDefinitionId: made.revocationRegistryDefinitionId,
        previous: newest.revocationRegistryDefinitionId,
      })
    } catch (error) {
      await this.repository.releaseSuccessor(newest.id)
      throw error
    }
  }

  private async createRegistry(
    agent: AgentClient,
    orgId: string,
    credDefRecordId: string,
    agentCredDefId: string,
  ): Promise<RevocationRegistry> {
    const made = await agent.withTimeout(this.timeoutMs).createRevocationRegistry({
      credentialDefinitionId: agentCredDefId,
      maximumCredentialNumber: this.size,
    })
    return this.repository.add(orgId, {
      credentialDefinitionId: credDefRecordId,
      revocationRegistryDefinitionId: made.revocationRegistryDefinitionId,
      size: this.size,
    })
  }
}
