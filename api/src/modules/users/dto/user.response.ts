import type { User } from '../user.entity'
import { boolean, dateTime, email, object, string, uuid } from '../../../infra/http/data-schema'

/** What the API shows of a user: never the password hash. */
export interface UserResponse {
  id: string
  email: string
  firstName: string
  lastName: string
  isEmailVerified: boolean
  createdAt: string
}

export function toUserResponse(user: User): UserResponse {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    isEmailVerified: user.isEmailVerified,
    createdAt: user.createdAt.toISOString(),
  }
}

/** UserResponse in the OpenAPI document. */
export const USER_SCHEMA = object<UserResponse>('User', {
  id: uuid,
  email,
  firstName: string,
  lastName: string,
  isEmailVerified: boolean,
  createdAt: dateTime,
})
