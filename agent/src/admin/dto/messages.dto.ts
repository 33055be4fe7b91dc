import { Type } from 'class-transformer'
import { ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator'
import type {
  AnswerQuestionRequest,
  AskQuestionRequest,
  SendBasicMessageRequest,
} from '@idplane/common/agent-contract/admin-api'

export class SendBasicMessageDto implements SendBasicMessageRequest {
  @IsString() @IsNotEmpty() @MaxLength(10000) content: string
}

class ValidResponseDto {
  @IsString() @IsNotEmpty() text: string
}

export class AskQuestionDto implements AskQuestionRequest {
  @IsString() @IsNotEmpty() question: string
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => ValidResponseDto)
  validResponses: ValidResponseDto[]
  @IsOptional() @IsString() detail?: string
}

export class AnswerQuestionDto implements AnswerQuestionRequest {
  @IsString() @IsNotEmpty() response: string
}
