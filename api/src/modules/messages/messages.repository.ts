import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { BasicMessage } from './basic-message.entity'
import type { BasicMessageFields } from './message.mapper'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'

/** Basic-message records; every lookup takes the organization first. */
@injectable()
export class MessagesRepository extends OrgRepository<BasicMessage> {
  public constructor(em: EntityManager) {
    super(em, BasicMessage)
  }

  /**
   * The organization's record of the agent's basic message `messageId`, locked until the transaction ends; inserted
   * from `fields` first when absent (`isNew`). The agent's event and the route's answer race to create it: the
   * unique key (organization, messageId) makes one win and the other read the winner's row.
   */
  public async lockOrCreate(
    orgId: string,
    messageId: string,
    fields: BasicMessageFields,
  ): Promise<LockedRow<BasicMessage>> {
    return this.lockOrCreateExchange({ organization: orgId, messageId }, fields, { missing: 'Basic message not found' })
  }

  public messagesOf(
    orgId: string,
    connectionId: string,
    query: { pageNumber: number; pageSize: number; sortBy: 'ASC' | 'DESC' },
  ): Promise<[BasicMessage[], number]> {
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    return this.pageInOrg(orgId, { connectionId }, query, { agentCreatedAt: direction })
  }
}
