import { IsEmail, IsString, MaxLength } from 'class-validator'
import { EMAIL_MAX_LENGTH, NormalizeEmail } from './normalize'

export class VerificationMailDto {
  @NormalizeEmail()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string
}
