import { injectable } from 'inversify'
import { LockMode } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { Organization } from '../orgs/organization.entity'
import { BasicMessage } from './basic-message.entity'
import { QuestionAnswer } from './question-answer.entity'
import { OrgRepository } from '../../infra/db/base.repository'

type NewRow<T> = Omit<T, 'organization' | 'id' | 'createdAt' | 'updatedAt'>

/** Question-answer and basic-message records; every lookup takes the organization first. */
@injectable()
export class MessagesRepository extends OrgRepository<BasicMessage> {
  public constructor(em: EntityManager) {
    super(em, BasicMessage)
  }

  public findQuestionForUpdate(orgId: string, questionAnswerId: string): Promise<QuestionAnswer | null> {
    return this.em.findOne(
      QuestionAnswer,
      { organization: orgId, questionAnswerId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    )
  }

  public findQuestion(orgId: string, questionAnswerId: string): Promise<QuestionAnswer | null> {
    return this.em.findOne(QuestionAnswer, { organization: orgId, questionAnswerId })
  }

  public createQuestion(orgId: string, fields: NewRow<QuestionAnswer>): QuestionAnswer {
    return this.em.create(QuestionAnswer, { ...fields, organization: this.em.getReference(Organization, orgId) })
  }

  /** Every question-answer record of the organization, newest first. */
  public allQuestions(orgId: string): Promise<QuestionAnswer[]> {
    return this.em.find(QuestionAnswer, { organization: orgId }, { orderBy: { agentCreatedAt: 'desc', id: 'asc' } })
  }

  public findMessage(orgId: string, messageId: string): Promise<BasicMessage | null> {
    return this.em.findOne(BasicMessage, { organization: orgId, messageId })
  }

  public createMessage(orgId: string, fields: NewRow<BasicMessage>): BasicMessage {
    return this.em.create(BasicMessage, { ...fields, organization: this.em.getReference(Organization, orgId) })
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
