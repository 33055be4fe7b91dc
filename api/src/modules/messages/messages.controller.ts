import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { arrayOf, pageOf } from '../../infra/http/data-schema'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import {
  AnswerQuestionDto,
  AskQuestionDto,
  ListBasicMessagesQuery,
  MessageConnectionParams,
  QuestionAnswerParams,
  SendBasicMessageDto,
} from './dto/message.dto'
import {
  BASIC_MESSAGE_SCHEMA,
  QUESTION_ANSWER_SCHEMA,
  toBasicMessageResponse,
  type BasicMessageResponse,
  type QuestionAnswerResponse,
} from './dto/message.response'
import { MESSAGE_ROLES } from './message-roles'
import { MessagesService } from './messages.service'

/** Spec: Connections, the question-answer and basic-message routes; the answer and message list are extensions. */
@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Connections'] })
export class MessagesController {
  public constructor(private readonly messages: MessagesService) {}

  @Post('/question-answer/question/:connectionId')
  @HttpCode(201)
  @Authorized(MESSAGE_ROLES)
  @OpenAPI({ summary: 'Ask the other side of a connection a question with the answers it may give' })
  @ResponseData(QUESTION_ANSWER_SCHEMA, { errors: [409, 502] })
  async ask(
    @Params() params: MessageConnectionParams,
    @Body({ required: true }) body: AskQuestionDto,
  ): Promise<Envelope<QuestionAnswerResponse>> {
    return created(await this.messages.ask(params.orgId, params.connectionId, body), 'Question sent')
  }

  @Get('/question-answer/question')
  @Authorized(MESSAGE_ROLES)
  @OpenAPI({ summary: 'Every question-answer record of the organization with its state and answer, newest first' })
  @ResponseData(arrayOf(QUESTION_ANSWER_SCHEMA))
  async listQuestions(@Param('orgId') orgId: string): Promise<Envelope<QuestionAnswerResponse[]>> {
    return ok(await this.messages.allQuestions(orgId), 'Questions fetched')
  }

  @Post('/question-answer/answer/:questionAnswerId')
  @HttpCode(201)
  @Authorized(MESSAGE_ROLES)
  @OpenAPI({ summary: 'Extension: answer a question the organization received, with one of its valid responses' })
  @ResponseData(QUESTION_ANSWER_SCHEMA, { errors: [409, 502] })
  async answer(
    @Params() params: QuestionAnswerParams,
    @Body({ required: true }) body: AnswerQuestionDto,
  ): Promise<Envelope<QuestionAnswerResponse>> {
    return created(await this.messages.answer(params.orgId, params.questionAnswerId, body), 'Answer sent')
  }

  @Post('/basic-message/:connectionId')
  @HttpCode(201)
  @Authorized(MESSAGE_ROLES)
  @OpenAPI({ summary: 'Send a plain-text message over a connection' })
  @ResponseData(BASIC_MESSAGE_SCHEMA, { errors: [409, 502] })
  async send(
    @Params() params: MessageConnectionParams,
    @Body({ required: true }) body: SendBasicMessageDto,
  ): Promise<Envelope<BasicMessageResponse>> {
    return created(await this.messages.send(params.orgId, params.connectionId, body.content), 'Message sent')
  }

  @Get('/basic-message/:connectionId')
  @Authorized(MESSAGE_ROLES)
  @OpenAPI({ summary: "Extension: the organization's messages of one connection, paginated, newest first" })
  @ResponseData(pageOf(BASIC_MESSAGE_SCHEMA))
  async list(
    @Params() params: MessageConnectionParams,
    @QueryParams() query: ListBasicMessagesQuery,
  ): Promise<Envelope<Page<BasicMessageResponse>>> {
    const [rows, total] = await this.messages.messagesOf(params.orgId, params.connectionId, query)
    return ok(toPage(rows.map(toBasicMessageResponse), total, query), 'Messages fetched')
  }
}
