import { injectable } from 'inversify'
import { ModuleRegistry } from '../../infra/module-registry'
import { OrgExchangeRecords, stateChangedType } from '../../infra/records/exchange-records'
import { stateOrder } from '../../infra/records/record-order'
import type { BasicMessage } from './basic-message.entity'
import { toBasicMessageResponse, toQuestionAnswerResponse } from './dto/message.response'
import {
  basicMessageReportOf,
  messageDirectionOf,
  questionAnswerReportOf,
  type BasicMessageFields,
  type QuestionAnswerFields,
} from './message.mapper'
import { MessageMetrics } from './message-metrics'
import { MessagesRepository } from './messages.repository'
import type { QuestionAnswer } from './question-answer.entity'
import { QuestionAnswersRepository } from './question-answers.repository'
import { QUESTION_ANSWER_ORDER } from './question-answer.states'

export const QUESTION_ANSWER_STATE_CHANGED = stateChangedType('question-answer')
export const BASIC_MESSAGE_RECEIVED = 'basic-message.received'
export const BASIC_MESSAGE_SENT = 'basic-message.sent'

/**
 * An organization's question-answer records, kept in step with its agent's (infra/records/exchange-records.ts);
 * the answer arrives here when the other side answers.
 */
@injectable()
export class QuestionAnswerRecords extends OrgExchangeRecords<QuestionAnswer, QuestionAnswerFields> {
  public constructor(questions: QuestionAnswersRepository, modules: ModuleRegistry, metrics: MessageMetrics) {
    super(
      {
        name: 'question-answer',
        order: QUESTION_ANSWER_ORDER,
        mapper: questionAnswerReportOf,
        store: {
          transactional: (work) => questions.transactional(work),
          lockOrCreate: (orgId, report) => questions.lockOrCreate(orgId, report.recordId, report.fields),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          if (decision !== 'ignore') Object.assign(row, report.fields)
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row) => ({ ...toQuestionAnswerResponse(row) }),
        onAnnounced: (row) => metrics.questionStateChanges.inc({ state: row.state }),
      },
      modules,
    )
  }
}

/** A basic message is stored once, in its direction; it never changes. */
const BASIC_MESSAGE_ORDER = stateOrder({ sent: 0, received: 0 }, ['sent', 'received'])

/**
 * The organization's basic messages, recorded once each; a new one is announced as `basic-message.sent` or
 * `basic-message.received`.
 */
@injectable()
export class BasicMessageRecords extends OrgExchangeRecords<BasicMessage, BasicMessageFields> {
  public constructor(messages: MessagesRepository, modules: ModuleRegistry, metrics: MessageMetrics) {
    super(
      {
        name: 'basic-message',
        order: BASIC_MESSAGE_ORDER,
        mapper: basicMessageReportOf,
        store: {
          transactional: (work) => messages.transactional(work),
          lockOrCreate: (orgId, report) => messages.lockOrCreate(orgId, report.recordId, report.fields),
        },
        versionOf: (row) => ({ state: messageDirectionOf(row.role), versionAt: row.agentCreatedAt }),
        write: () => undefined,
        eventOwner: (orgId) => ({ orgId }),
        eventType: (row) => (messageDirectionOf(row.role) === 'sent' ? BASIC_MESSAGE_SENT : BASIC_MESSAGE_RECEIVED),
        eventRecord: (row) => ({ ...toBasicMessageResponse(row) }),
        onAnnounced: (row) => metrics.basicMessages.inc({ direction: messageDirectionOf(row.role) }),
      },
      modules,
    )
  }
}
