import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { upperCase } from '../../connections/dto/list-connections.query'

/** Longest question, detail, response text and basic message the API sends. */
export const MAX_MESSAGE_LENGTH = 10_000
/** Most answers a question may offer. */
export const MAX_VALID_RESPONSES = 20

export class ValidResponseDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  text: string
}

/** Body of `POST /orgs/:orgId/question-answer/question/:connectionId` (field names: docs/decisions.md). */
export class AskQuestionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_MESSAGE_LENGTH)
  question: string

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_VALID_RESPONSES)
  @ValidateNested({ each: true })
  @Type(() => ValidResponseDto)
  validResponses: ValidResponseDto[]

  @IsOptional()
  @IsString()
  @MaxLength(MAX_MESSAGE_LENGTH)
  detail?: string
}

/** Body of the extension `POST /orgs/:orgId/question-answer/answer/:questionAnswerId`. */
export class AnswerQuestionDto {
  /** One of the question's `validResponses` texts. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  response: string
}

/** Body of `POST /orgs/:orgId/basic-message/:connectionId`. */
export class SendBasicMessageDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_MESSAGE_LENGTH)
  content: string
}

/** Path of the routes on one connection's messages. */
export class MessageConnectionParams {
  @IsString()
  orgId: string

  @IsUUID()
  connectionId: string
}

/** Path of the answer route. */
export class QuestionAnswerParams {
  @IsString()
  orgId: string

  @IsUUID()
  questionAnswerId: string
}

/** Query of the extension `GET /orgs/:orgId/basic-message/:connectionId`: newest first unless `sortBy=ASC`. */
export class ListBasicMessagesQuery extends PageQuery {
  @IsOptional()
  @upperCase()
  @IsIn(['ASC', 'DESC'])
  sortBy: 'ASC' | 'DESC' = 'DESC'
}
