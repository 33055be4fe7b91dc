import { injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { BasicMessage } from './basic-message.entity'
import type { BasicMessageFields } from './message.mapper'
import { OrgRepository } from '../../infra/db/base.repository'

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
  ): Promise<{ row: BasicMessage; isNew: boolean }> {
    const now = new Date()
    const defaults = new BasicMessage()
    const locked = await this.lockOrCreateRow(
      { organization: orgId, messageId },
      { ...fields, id: defaults.id, organization: orgId, messageId, createdAt: now, updatedAt: now },
    )
    // The where is the row's unique key: the row inserted or the one that won the race is always found.
    if (!locked) throw new NotFoundError('Basic message not found')
    return { row: locked.entity, isNew: locked.isNew }
  }

  public messagesOf(
    orgId: string,
    connectionId: string,
    query: { pageNumber: number; pageSize: number; sortBy: 'ASC' | 'DESC' },
  ): Promise<[BasicMessage[], number]> {
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    return this.em.findAndCount(
      BasicMessage,
      { organization: orgId, connectionId },
      { orderBy: { agentCreatedAt: direction, id: 'asc' }, limit: query.pageSize, offset: pageOffset(query) },
    )
  }
}
