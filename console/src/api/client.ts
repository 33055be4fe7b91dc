import createClient from 'openapi-fetch'
import type { components, paths } from './openapi'
import { currentAccessToken, refreshSession } from './session'

export type Schemas = components['schemas']

/** The typed client of the platform API, generated from its OpenAPI document (scripts/build-console.mjs). */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' })

api.use({
  onRequest({ request }) {
    const token = currentAccessToken()
    if (token) request.headers.set('Authorization', `Bearer ${token}`)
    return request
  },
})

/** A failed call, with the API's own message and, for validation errors, one message per field. */
export class ApiError extends Error {
  public constructor(
    message: string,
    public readonly status: number,
    public readonly fields: { field: string; message: string }[] = [],
  ) {
    super(message)
  }
}

interface Answer<Envelope> {
  data?: Envelope
  error?: unknown
  response: Response
}

/**
 * Runs one API call and returns its envelope; throws ApiError with the API's message when it failed. A 401 renews
 * the session once (the access token may just have expired) and runs the call again.
 */
export async function call<Envelope>(run: () => Promise<Answer<Envelope>>): Promise<Envelope> {
  let answer = await run()
  if (answer.response.status === 401 && currentAccessToken() !== undefined && (await refreshSession())) {
    answer = await run()
  }
  if (answer.error !== undefined || !answer.response.ok) throw toApiError(answer.error, answer.response)
  return answer.data as Envelope
}

function toApiError(body: unknown, response: Response): ApiError {
  const error = (body ?? {}) as Partial<Schemas['ErrorBody']>
  const message = typeof error.message === 'string' ? error.message : `Request failed (${response.status})`
  return new ApiError(message, response.status, Array.isArray(error.errors) ? error.errors : [])
}

/** The message to show for anything thrown by a call. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const details = error.fields.map((field) => `${field.field}: ${field.message}`)
    return details.length > 0 && !details.some((detail) => error.message.includes(detail))
      ? `${error.message} (${details.join('; ')})`
      : error.message
  }
  if (error instanceof TypeError) return 'The platform could not be reached; check the connection and try again.'
  return error instanceof Error ? error.message : String(error)
}
