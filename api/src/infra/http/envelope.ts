/** The success envelope of every endpoint (spec: Conventions 2). */
export interface Envelope<T> {
  statusCode: number
  message: string
  data?: T
}

export function ok<T>(data: T, message: string): Envelope<T> {
  return { statusCode: 200, message, data }
}

/** Pair with `@HttpCode(201)` on the route. */
export function created<T>(data: T, message: string): Envelope<T> {
  return { statusCode: 201, message, data }
}

/** For the spec's "Response 200, message only" endpoints. */
export function done(message: string, statusCode = 200): Envelope<never> {
  return { statusCode, message }
}
