import type { User } from '../user.entity'

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
