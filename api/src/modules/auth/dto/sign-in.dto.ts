import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator'
import { PASSWORD_MAX_LENGTH } from '../password-policy'
import { EMAIL_MAX_LENGTH, NormalizeEmail } from './normalize'

/** No password policy here: sign-in must keep working for passwords set under older rules. */
export class SignInDto {
  @NormalizeEmail()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string

  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string
}
