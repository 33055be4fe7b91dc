import type {
  AnswerQuestionRequest,
  AskQuestionRequest,
  BasicMessageRecordJson,
  QuestionAnswerRecordJson,
  SendBasicMessageRequest,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

const OVER_A_CONNECTION = {
  404: 'no such connection',
  409: 'the connection is not ready',
  502: 'the message could not be delivered to the other agent',
} as const

/** Basic messages and question-answer over an existing connection. */
export const MESSAGE_OPERATIONS = operationsByName({
  sendBasicMessage: defineOperation({
    name: 'sendBasicMessage',
    method: 'POST',
    path: '/basic-messages/:connectionId',
    message: 'Message sent',
    body: shape<SendBasicMessageRequest>(),
    result: shape<BasicMessageRecordJson>(),
    summary: 'Sends a basic message',
    errors: OVER_A_CONNECTION,
  }),
  listBasicMessages: defineOperation({
    name: 'listBasicMessages',
    method: 'GET',
    path: '/basic-messages/:connectionId',
    result: shape<BasicMessageRecordJson[]>(),
    summary: 'The basic messages sent and received on a connection',
  }),
  askQuestion: defineOperation({
    name: 'askQuestion',
    method: 'POST',
    path: '/question-answer/question/:connectionId',
    message: 'Question sent',
    body: shape<AskQuestionRequest>(),
    result: shape<QuestionAnswerRecordJson>(),
    summary: 'Asks a question with its valid responses',
    errors: OVER_A_CONNECTION,
  }),
  answerQuestion: defineOperation({
    name: 'answerQuestion',
    method: 'POST',
    path: '/question-answer/answer/:questionAnswerId',
    message: 'Answer sent',
    body: shape<AnswerQuestionRequest>(),
    result: shape<QuestionAnswerRecordJson>(),
    summary: 'Answers a received question',
    errors: {
      400: 'the response is not one of the valid responses',
      404: 'no such question',
      409: 'the question was answered before',
      502: 'the answer could not be delivered to the other agent',
    },
  }),
  listQuestions: defineOperation({
    name: 'listQuestions',
    method: 'GET',
    path: '/question-answer',
    result: shape<QuestionAnswerRecordJson[]>(),
    summary: 'The questions asked and received',
  }),
})
