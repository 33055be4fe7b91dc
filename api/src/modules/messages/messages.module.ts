import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { BasicMessage } from './basic-message.entity'
import { BasicMessageRecords, QuestionAnswerRecords } from './message-records'
import { MessageMetrics } from './message-metrics'
import { MessagesController } from './messages.controller'
import { MessagesRepository } from './messages.repository'
import { MessagesService } from './messages.service'
import { QuestionAnswer } from './question-answer.entity'
import { QuestionAnswersRepository } from './question-answers.repository'

/**
 * Question-answer and basic messages over the organization's connections (spec: Connections), with records kept
 * from the agent's `question-answer` and `basic-message` events.
 */
export const messagesModule: ApiModule = {
  name: 'messages',
  controllers: [MessagesController],
  entities: [QuestionAnswer, BasicMessage],
  agentEventHandlers: [
    { kind: 'question-answer', handler: QuestionAnswerRecords },
    { kind: 'basic-message', handler: BasicMessageRecords },
  ],
  bindings: new ContainerModule(({ bind }) => {
    bind(MessagesController).toSelf().inSingletonScope()
    bind(MessagesService).toSelf().inSingletonScope()
    bind(MessagesRepository).toSelf().inSingletonScope()
    bind(QuestionAnswersRepository).toSelf().inSingletonScope()
    bind(QuestionAnswerRecords).toSelf().inSingletonScope()
    bind(BasicMessageRecords).toSelf().inSingletonScope()
    bind(MessageMetrics)
      .toDynamicValue((context) => new MessageMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
