import { IsNotEmpty, IsString, MaxLength } from 'class-validator'

export class RefreshTokenDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  refreshToken: string
}
