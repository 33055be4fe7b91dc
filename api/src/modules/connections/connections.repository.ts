import { injectable } from 'inversify'
import { type FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { Connection } from './connection.entity'
import { ConnectionDeletion } from './connection-deletion.entity'
import type { ConnectionSortField } from './dto/list-connections.query'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'

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
  ): Promise<LockedRow<Connection> | null> {
    return this.lockOrCreateExchange({ organization: orgId, connectionId }, fields, {
      // Asked only when there is no row: most reports lock the existing row without asking about delete-alls.
      mayCreate: async () => {
        const deletedBefore = await this.deletedBefore(orgId)
        return deletedBefore === undefined || fields.agentCreatedAt >= deletedBefore
      },
    })
  }

  public findOne(orgId: string, connectionId: string): Promise<Connection | null> {
    return this.em.findOne(Connection, { organization: orgId, connectionId })
  }

  public page(orgId: string, query: ConnectionPageQuery): Promise<[Connection[], number]> {
    const where: FilterQuery<Connection> = {}
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
    return this.pageInOrg(orgId, where, query, { [column]: direction })
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
