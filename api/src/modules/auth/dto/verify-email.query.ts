import { IsEmail, IsString, Matches, MaxLength } from 'class-validator'
import { EMAIL_MAX_LENGTH, NormalizeEmail, Trim } from './normalize'

/** Query of GET /auth/verify; the spec leaves the names open (docs/decisions.md). */
export class VerifyEmailQuery {
  @NormalizeEmail()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string

  @Trim()
  @IsString()
  @Matches(/^\d{6,12}$/, { message: 'verificationCode must be the code from the verification mail' })
  verificationCode: string
}
