import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgAgent } from './org-agent.entity'
import type { AgentStatus } from './org-agent.states'

/** Storage of organizations' agents; lookups take the organization id first. */
@injectable()
export class AgentsRepository {
  public constructor(private readonly em: EntityManager) {}

  public async findForOrg(orgId: string): Promise<OrgAgent | null> {
    return this.em.findOne(OrgAgent, { organization: orgId })
  }

  /** A fresh read, outside any identity map (background provisioning sees other writers' changes). */
  public async findById(id: string): Promise<OrgAgent | null> {
    return this.em.fork().findOne(OrgAgent, { id })
  }

  public async findByRuntime(runtime: OrgAgent['runtime'], statuses: readonly AgentStatus[]): Promise<OrgAgent[]> {
    return this.em.fork().find(OrgAgent, { runtime, status: { $in: [...statuses] } }, { orderBy: { createdAt: 'asc' } })
  }

  public async update(
    id: string,
    changes: Partial<Pick<OrgAgent, 'status' | 'failureReason' | 'adminPort' | 'inboundPort' | 'controllerEndpoint'>>,
  ): Promise<void> {
    await this.em.fork().nativeUpdate(OrgAgent, { id }, changes)
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
}
