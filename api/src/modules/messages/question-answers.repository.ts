import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'
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
  ): Promise<LockedRow<QuestionAnswer>> {
    return this.lockOrCreateExchange({ organization: orgId, questionAnswerId }, fields, {
      missing: 'Question-answer record not found',
    })
  }

  public findQuestion(orgId: string, questionAnswerId: string): Promise<QuestionAnswer | null> {
    return this.em.findOne(QuestionAnswer, { organization: orgId, questionAnswerId })
  }

  /** Every question-answer record of the organization, newest first. */
  public allQuestions(orgId: string): Promise<QuestionAnswer[]> {
    return this.em.find(QuestionAnswer, { organization: orgId }, { orderBy: { agentCreatedAt: 'desc', id: 'asc' } })
  }
}
