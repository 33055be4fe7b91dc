import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { type FilterQuery, type QueryOrderMap } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { Connection } from './connection.entity'
import { ConnectionDeletion } from './connection-deletion.entity'
import type { ConnectionSortField } from './dto/list-connections.query'
import { OrgRepository } from '../../infra/db/base.repository'

export interface ConnectionPageQuery {
  pageNumber: number
  pageSize: number
  searchByText?: string
  /** One of CONNECTION_SORT_FIELDS (the query's check); anything else sorts by creation. */
  sortField: string
  sortBy: 'ASC' | 'DESC'
}

const SORT_COLUMNS: Record<ConnectionSortField, keyof Connection> = {
  createDateTime: 'agentCreatedAt',
  updateDateTime: 'agentUpdatedAt',
  theirLabel: 'theirLabel',
  state: 'state',
}

/** Connection records; every lookup takes the organization first. */
@injectable()
export class ConnectionsRepository extends OrgRepository<Connection> {
  public constructor(em: EntityManager) {
    super(em, Connection)
  }

  /**
   * The organization's record of the agent's connection, locked until the transaction ends; inserted from `fields`
   * first when absent (`isNew`). The agent's event and the route's answer race to create it: the unique key
   * (organization, connectionId) makes one win and the other read the winner's row. A record created before the
   * organization's last delete-all was deleted then: it is not created again (null).
   */
  public async lockOrCreate(
    orgId: string,
    connectionId: string,
    fields: Omit<Connection, 'organization' | 'id' | 'createdAt' | 'updatedAt' | 'connectionId'>,
  ): Promise<{ row: Connection; isNew: boolean } | null> {
    const now = new Date()
    const locked = await this.lockOrCreateRow(
      { organization: orgId, connectionId },
      { ...fields, id: randomUUID(), organization: orgId, connectionId, createdAt: now, updatedAt: now },
      // Asked only when there is no row: most reports lock the existing row without asking about delete-alls.
      async () => {
        const deletedBefore = await this.deletedBefore(orgId)
        return deletedBefore === undefined || fields.agentCreatedAt >= deletedBefore
      },
    )
    return locked && { row: locked.entity, isNew: locked.isNew }
  }

  public findOne(orgId: string, connectionId: string): Promise<Connection | null> {
    return this.em.findOne(Connection, { organization: orgId, connectionId })
  }

  public page(orgId: string, query: ConnectionPageQuery): Promise<[Connection[], number]> {
    const where: FilterQuery<Connection> = { organization: orgId }
    if (query.searchByText) {
      const pattern = containsPattern(query.searchByText)
      where.$or = [
        { theirLabel: { $ilike: pattern } },
        { alias: { $ilike: pattern } },
        { theirDid: { $ilike: pattern } },
        { connectionId: { $ilike: pattern } },
      ]
    }
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    const column = SORT_COLUMNS[query.sortField as ConnectionSortField] ?? 'agentCreatedAt'
    const orderBy = { [column]: direction, id: 'asc' } as QueryOrderMap<Connection>
    return this.em.findAndCount(Connection, where, { orderBy, limit: query.pageSize, offset: pageOffset(query) })
  }

  /**
   * Deletes every connection record of the organization and remembers `deletedBefore`, so that late events of
   * agent records created before it are ignored (deletedBefore below); the count deleted.
   */
  public deleteAll(orgId: string, deletedBefore: Date): Promise<number> {
    return this.em.transactional(async (em) => {
      await em.upsert(ConnectionDeletion, { organization: em.getReference(Organization, orgId), deletedBefore })
      return em.nativeDelete(Connection, { organization: orgId })
    })
  }

  /** When the organization last deleted all its connections, if it ever did. */
  public async deletedBefore(orgId: string): Promise<Date | undefined> {
    return (await this.em.findOne(ConnectionDeletion, { organization: orgId }))?.deletedBefore
  }
}
