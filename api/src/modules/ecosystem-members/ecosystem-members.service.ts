import { injectable } from 'inversify'
import { Logger, NotFoundError } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import { ModuleRegistry } from '../../infra/module-registry'
import type { PlatformEvent } from '../../infra/platform-events'
import type { EcosystemMembership, EcosystemOrgStatus } from '../ecosystems/ecosystem-membership.entity'
import { ECOSYSTEM_EVENT_TYPES, ecosystemEvents } from '../ecosystems/ecosystem-events'
import { nextEcosystemOrgState, stateOf } from '../ecosystems/ecosystem-membership.states'
import { EcosystemAccess, existingEcosystem } from '../ecosystems/ecosystem-access'
import type { PageRequest } from '../../infra/db/base.repository'
import { EcosystemsRepository } from '../ecosystems/ecosystems.repository'
import { EcosystemMembersRepository } from './ecosystem-members.repository'

/** What the lead does with the organizations of its ecosystem: list them, remove them, set their status. */
@injectable()
export class EcosystemMembersService {
  private readonly logger: Logger

  public constructor(
    private readonly ecosystems: EcosystemsRepository,
    private readonly members: EcosystemMembersRepository,
    private readonly access: EcosystemAccess,
    private readonly modules: ModuleRegistry,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'ecosystem-members' })
  }

  /**
   * Every organization of the ecosystem (the lead first), with role and status.
   * @throws NotFoundError, ForbiddenError (not the lead)
   */
  public async list(
    principal: Principal,
    ecosystemId: string,
    page: PageRequest,
  ): Promise<[EcosystemMembership[], number]> {
    await this.access.ledEcosystem(principal, ecosystemId, 'list its members')
    return this.members.list(ecosystemId, page)
  }

  /**
   * Removes the organizations from the ecosystem, all or none; each removed one and the lead get an event.
   * @throws NotFoundError when an organization is not in the ecosystem
   * @throws InvalidStateError for the lead organization
   */
  public async remove(principal: Principal, ecosystemId: string, orgIds: readonly string[]): Promise<number> {
    await this.access.ledEcosystem(principal, ecosystemId, 'remove members')
    const removed = await this.ecosystems.transactional(async () => {
      const ecosystem = existingEcosystem(await this.ecosystems.lockEcosystem(ecosystemId))
      const rows = await this.rowsOf(ecosystemId, orgIds)
      for (const row of rows) nextEcosystemOrgState(stateOf(row), 'remove')
      // The records as they were: the events announce what was removed.
      const events = rows.flatMap((row) =>
        ecosystemEvents(ECOSYSTEM_EVENT_TYPES.memberRemoved, row, ecosystem.leadOrganization.id),
      )
      await this.members.remove(rows)
      await this.modules.publish(events)
      return rows.length
    })
    this.logger.info('Removed ecosystem members', { ecosystemId, removed })
    return removed
  }

  /**
   * Sets the status of the organizations (spec: any status to the given one), all or none; an event for each
   * organization whose status changed and for the lead.
   * @throws NotFoundError when an organization is not in the ecosystem
   * @throws InvalidStateError for the lead organization
   */
  public async setStatus(
    principal: Principal,
    ecosystemId: string,
    orgIds: readonly string[],
    status: EcosystemOrgStatus,
  ): Promise<EcosystemMembership[]> {
    await this.access.ledEcosystem(principal, ecosystemId, 'change the status of members')
    const rows = await this.ecosystems.transactional(async () => {
      const ecosystem = existingEcosystem(await this.ecosystems.lockEcosystem(ecosystemId))
      const found = await this.rowsOf(ecosystemId, orgIds)
      const changed = found.filter((row) => nextEcosystemOrgState(stateOf(row), 'set-status', status) !== row.status)
      for (const row of changed) row.status = status
      await this.ecosystems.flush()
      const events: PlatformEvent[] = changed.flatMap((row) =>
        ecosystemEvents(ECOSYSTEM_EVENT_TYPES.memberStatusChanged, row, ecosystem.leadOrganization.id),
      )
      await this.modules.publish(events)
      return found
    })
    this.logger.info('Set ecosystem member status', { ecosystemId, status, organizations: rows.length })
    return rows
  }

  /** The rows of every listed organization, in the order listed (duplicates once). */
  private async rowsOf(ecosystemId: string, orgIds: readonly string[]): Promise<EcosystemMembership[]> {
    const wanted = [...new Set(orgIds.map((id) => id.toLowerCase()))]
    const rows = await this.ecosystems.memberships(ecosystemId, wanted)
    const byOrg = new Map(rows.map((row) => [row.organization.id, row]))
    const missing = wanted.filter((id) => !byOrg.has(id))
    if (missing.length > 0) {
      throw new NotFoundError(`Not organizations of this ecosystem: ${missing.join(', ')}`)
    }
    return wanted.map((id) => byOrg.get(id) as EcosystemMembership)
  }
}
