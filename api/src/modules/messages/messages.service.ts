import { injectable } from 'inversify'
import { InvalidInputError, InvalidStateError, NotFoundError, UpstreamError } from '@idplane/common'
import type { AgentClient } from '../../agent-client/agent-client'
import { AgentClients } from '../../agent-client/agent-clients'
import type { BasicMessage } from './basic-message.entity'
import type { AnswerQuestionDto, AskQuestionDto } from './dto/message.dto'
import {
  toBasicMessageResponse,
  toQuestionAnswerResponse,
  type BasicMessageResponse,
  type QuestionAnswerResponse,
} from './dto/message.response'
import { BasicMessageRecords, QuestionAnswerRecords } from './message-records'
import { MessagesRepository } from './messages.repository'
import { AWAITING_ANSWER_STATE } from './question-answer.states'
import { QuestionAnswersRepository } from './question-answers.repository'

/**
 * Questions and basic messages over the organization's connections (spec: Connections), sent through its agent;
 * the records come from the agent's answers and events (message-records.ts).
 */
@injectable()
export class MessagesService {
  public constructor(
    private readonly agents: AgentClients,
    private readonly messages: MessagesRepository,
    private readonly questionAnswers: QuestionAnswersRepository,
    private readonly questions: QuestionAnswerRecords,
    private readonly basicMessages: BasicMessageRecords,
  ) {}

  /**
   * Asks the other side of a connection a question.
   * @throws NotFoundError when the organization has no agent or the agent does not know the connection
   */
  public async ask(orgId: string, connectionId: string, body: AskQuestionDto): Promise<QuestionAnswerResponse> {
    const agent = await this.connectedAgent(orgId, connectionId)
    const asked = await agent.askQuestion(connectionId, {
      question: body.question,
      validResponses: body.validResponses.map((response) => ({ text: response.text })),
      ...(body.detail === undefined ? {} : { detail: body.detail }),
    })
    return toQuestionAnswerResponse(await this.recorded(this.questions.applyAnswered(orgId, asked)))
  }

  /**
   * Answers a question the organization received (extension).
   * @throws NotFoundError for an unknown question; InvalidInputError when the response is not one the question
   *   offers; ConflictError (409, from the agent) when it was answered already
   */
  public async answer(
    orgId: string,
    questionAnswerId: string,
    body: AnswerQuestionDto,
  ): Promise<QuestionAnswerResponse> {
    const question = await this.questionAnswers.findQuestion(orgId, questionAnswerId)
    if (!question) throw new NotFoundError('Question not found')
    if (question.state !== AWAITING_ANSWER_STATE) {
      throw new InvalidInputError(
        `This question is in state ${question.state}; only a received question can be answered`,
      )
    }
    if (!question.validResponses.some((valid) => valid.text === body.response)) {
      throw new InvalidInputError('response must be one of the valid responses of the question', [
        {
          field: 'response',
          message: `must be one of: ${question.validResponses.map((valid) => valid.text).join(', ')}`,
        },
      ])
    }
    const agent = await this.agents.forOrg(orgId)
    const answered = await agent.answerQuestion(questionAnswerId, { response: body.response })
    return toQuestionAnswerResponse(await this.recorded(this.questions.applyAnswered(orgId, answered)))
  }

  /** Every question-answer record of the organization, newest first. */
  public async allQuestions(orgId: string): Promise<QuestionAnswerResponse[]> {
    return (await this.questionAnswers.allQuestions(orgId)).map(toQuestionAnswerResponse)
  }

  /** Sends a basic message over a connection. */
  public async send(orgId: string, connectionId: string, content: string): Promise<BasicMessageResponse> {
    const agent = await this.connectedAgent(orgId, connectionId)
    const sent = await agent.sendBasicMessage(connectionId, { content })
    return toBasicMessageResponse(await this.recorded(this.basicMessages.applyAnswered(orgId, sent)))
  }

  public messagesOf(
    orgId: string,
    connectionId: string,
    query: { pageNumber: number; pageSize: number; sortBy: 'ASC' | 'DESC' },
  ): Promise<[BasicMessage[], number]> {
    return this.messages.messagesOf(orgId, connectionId, query)
  }

  /**
   * The organization's agent, once it confirmed that the connection is completed (Credo would refuse any other
   * state with an error the agent can only report as a failure).
   * @throws NotFoundError for a connection the agent does not know; InvalidStateError (409) for one not completed
   */
  private async connectedAgent(orgId: string, connectionId: string): Promise<AgentClient> {
    const agent = await this.agents.forOrg(orgId)
    const connection = await agent.getConnection(connectionId)
    if (connection.state !== 'completed') {
      throw new InvalidStateError(`The connection is in state ${connection.state}; it must be completed first`)
    }
    return agent
  }

  /** The record an agent answer made; an answer that is no record of its kind is the agent's fault. */
  private async recorded<T>(applied: Promise<{ row: T } | null>): Promise<T> {
    const row = (await applied)?.row
    if (!row) throw new UpstreamError("The agent's answer carried no usable record")
    return row
  }
}
