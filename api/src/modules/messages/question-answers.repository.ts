import { injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRepository } from '../../infra/db/base.repository'
import { QuestionAnswer } from './question-answer.entity'
import type { QuestionAnswerFields } from './message.mapper'

/** Question-answer records; every lookup takes the organization first. */
@injectable()
export class QuestionAnswersRepository extends OrgRepository<QuestionAnswer> {
  public constructor(em: EntityManager) {
    super(em, QuestionAnswer)
  }

  /**
   * The organization's record of the agent's question-answer `questionAnswerId`, locked until the transaction
   * ends; inserted from `fields` first when absent (`isNew`). The agent's event and the route's answer race to
   * create it: the unique key (organization, questionAnswerId) makes one win and the other read the winner's row.
   */
  public async lockOrCreate(
    orgId: string,
    questionAnswerId: string,
    fields: QuestionAnswerFields,
  ): Promise<{ row: QuestionAnswer; isNew: boolean }> {
    const now = new Date()
    const defaults = new QuestionAnswer()
    const locked = await this.lockOrCreateRow(
      { organization: orgId, questionAnswerId },
      { ...fields, id: defaults.id, organization: orgId, questionAnswerId, createdAt: now, updatedAt: now },
    )
    // The where is the row's unique key: the row inserted or the one that won the race is always found.
    if (!locked) throw new NotFoundError('Question-answer record not found')
    return { row: locked.entity, isNew: locked.isNew }
  }

  public findQuestion(orgId: string, questionAnswerId: string): Promise<QuestionAnswer | null> {
    return this.em.findOne(QuestionAnswer, { organization: orgId, questionAnswerId })
  }

  /** Every question-answer record of the organization, newest first. */
  public allQuestions(orgId: string): Promise<QuestionAnswer[]> {
    return this.em.find(QuestionAnswer, { organization: orgId }, { orderBy: { agentCreatedAt: 'desc', id: 'asc' } })
  }
}
