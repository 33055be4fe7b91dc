import type { MESSAGE_OPERATIONS } from '@idplane/common/agent-contract/operations/messages'

import type { AdminController } from './admin-routes'
import { AnswerQuestionDto, AskQuestionDto, SendBasicMessageDto } from './dto/messages.dto'
import type { MessagesService } from './messages.service'

export function messagesController(messages: MessagesService): AdminController<typeof MESSAGE_OPERATIONS> {
  return {
    sendBasicMessage: {
      body: SendBasicMessageDto,
      handle: ({ scope, params, body }) => messages.send(scope, params.connectionId, body),
    },
    listBasicMessages: { handle: ({ scope, params }) => messages.list(scope, params.connectionId) },
    askQuestion: {
      body: AskQuestionDto,
      handle: ({ scope, params, body }) => messages.ask(scope, params.connectionId, body),
    },
    answerQuestion: {
      body: AnswerQuestionDto,
      handle: ({ scope, params, body }) => messages.answer(scope, params.questionAnswerId, body),
    },
    listQuestions: { handle: ({ scope }) => messages.listQuestions(scope) },
  }
}
