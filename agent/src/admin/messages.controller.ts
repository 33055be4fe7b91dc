import { Authorized, Body, Get, HttpCode, JsonController, Param, Post } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { type AgentScope, CurrentScope } from './agent-scope'
import { AnswerQuestionDto, AskQuestionDto, SendBasicMessageDto } from './dto/messages.dto'
import { created, ok, toJson } from './envelope'

/** Basic messages and question-answer over an existing connection. */
@Authorized()
@JsonController()
export class MessagesController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Post('/basic-messages/:connectionId')
  @HttpCode(201)
  public async send(
    @CurrentScope() scope: AgentScope,
    @Param('connectionId') connectionId: string,
    @Body() body: SendBasicMessageDto,
  ) {
    const record = await scope.agent.didcomm.basicMessages.sendMessage(connectionId, body.content)
    return created(record.toJSON(), 'Message sent')
  }

  @Get('/basic-messages/:connectionId')
  public async list(@CurrentScope() scope: AgentScope, @Param('connectionId') connectionId: string) {
    return ok(toJson(await scope.agent.didcomm.basicMessages.findAllByQuery({ connectionId })))
  }

  @Post('/question-answer/question/:connectionId')
  @HttpCode(201)
  public async ask(
    @CurrentScope() scope: AgentScope,
    @Param('connectionId') connectionId: string,
    @Body() body: AskQuestionDto,
  ) {
    const record = await scope.agent.modules.questionAnswer.sendQuestion(connectionId, {
      question: body.question,
      validResponses: body.validResponses.map((response) => ({ text: response.text })),
      detail: body.detail,
    })
    return created(record.toJSON(), 'Question sent')
  }

  @Post('/question-answer/answer/:questionAnswerId')
  @HttpCode(201)
  public async answer(
    @CurrentScope() scope: AgentScope,
    @Param('questionAnswerId') id: string,
    @Body() body: AnswerQuestionDto,
  ) {
    return created((await scope.agent.modules.questionAnswer.sendAnswer(id, body.response)).toJSON(), 'Answer sent')
  }

  @Get('/question-answer')
  public async listQuestions(@CurrentScope() scope: AgentScope) {
    return ok(toJson(await scope.agent.modules.questionAnswer.getAll()))
  }
}
