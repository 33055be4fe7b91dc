import { Type } from 'class-transformer'
import { ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator'

export class SendBasicMessageDto {
  @IsString() @IsNotEmpty() @MaxLength(10000) content: string
}

class ValidResponseDto {
  @IsString() @IsNotEmpty() text: string
}

export class AskQuestionDto {
  @IsString() @IsNotEmpty() question: string
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => ValidResponseDto)
  validResponses: ValidResponseDto[]
  @IsOptional() @IsString() detail?: string
}

export class AnswerQuestionDto {
  @IsString() @IsNotEmpty() response: string
}
