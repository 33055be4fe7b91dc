import { IsBoolean, IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_PATTERN, PASSWORD_POLICY_MESSAGE } from '../password-policy'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, NO_CONTROL_CHARACTERS, NormalizeEmail, Trim } from './normalize'

export class SignUpDto {
  @NormalizeEmail()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string

  @Trim()
  @IsString()
  @Length(1, NAME_MAX_LENGTH)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'firstName must not contain control characters' })
  firstName: string

  @Trim()
  @IsString()
  @Length(1, NAME_MAX_LENGTH)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'lastName must not contain control characters' })
  lastName: string

  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PASSWORD_POLICY_MESSAGE })
  @Matches(PASSWORD_PATTERN, { message: PASSWORD_POLICY_MESSAGE })
  password: string

  /** Accepted because the spec lists it; the server decides from its own verification records. */
  @IsOptional()
  @IsBoolean()
  isEmailVerified?: boolean
}
