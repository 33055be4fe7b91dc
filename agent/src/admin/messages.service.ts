import type {
  AnswerQuestionRequest,
  AskQuestionRequest,
  BasicMessageRecordJson,
  QuestionAnswerRecordJson,
  SendBasicMessageRequest,
} from '@idplane/common/agent-contract/admin-api'

import { toRecordJson } from './agent-records'
import type { AgentScope } from './agent-scope'
import { protocolStep } from './credo-errors'

/**
 * Basic messages and question-answer over an existing connection. An unknown connection is a 404, one not ready a
 * 409, an undeliverable message a 502 (credo-errors.ts); anything else Credo refuses is the caller's input.
 */
export class MessagesService {
  public async send(
    scope: AgentScope,
    connectionId: string,
    body: SendBasicMessageRequest,
  ): Promise<BasicMessageRecordJson> {
    const record = await protocolStep('input', 'The message cannot be sent', () =>
      scope.agent.didcomm.basicMessages.sendMessage(connectionId, body.content),
    )
    return toRecordJson<BasicMessageRecordJson>(record)
  }

  public async list(scope: AgentScope, connectionId: string): Promise<BasicMessageRecordJson[]> {
    const records = await scope.agent.didcomm.basicMessages.findAllByQuery({ connectionId })
    return records.map(toRecordJson<BasicMessageRecordJson>)
  }

  public async ask(
    scope: AgentScope,
    connectionId: string,
    body: AskQuestionRequest,
  ): Promise<QuestionAnswerRecordJson> {
    const record = await protocolStep('input', 'The question cannot be sent', () =>
      scope.agent.modules.questionAnswer.sendQuestion(connectionId, {
        question: body.question,
        validResponses: body.validResponses.map((response) => ({ text: response.text })),
        detail: body.detail,
      }),
    )
    return toRecordJson<QuestionAnswerRecordJson>(record)
  }

  /** @throws {InvalidInputError} for a response that is not one of the valid ones */
  public async answer(
    scope: AgentScope,
    questionAnswerId: string,
    body: AnswerQuestionRequest,
  ): Promise<QuestionAnswerRecordJson> {
    const record = await protocolStep('input', 'The answer cannot be sent', () =>
      scope.agent.modules.questionAnswer.sendAnswer(questionAnswerId, body.response),
    )
    return toRecordJson<QuestionAnswerRecordJson>(record)
  }

  public async listQuestions(scope: AgentScope): Promise<QuestionAnswerRecordJson[]> {
    return (await scope.agent.modules.questionAnswer.getAll()).map(toRecordJson<QuestionAnswerRecordJson>)
  }
}
