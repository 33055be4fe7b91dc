import type { IncomingMessage } from 'node:http'
import type { Envelope } from './envelope'
import { entityTag } from './entity-tag'

/** The raw request of an upload route (its body is read as a stream, not parsed). */
export interface UploadRequest extends IncomingMessage {
  readonly complete: boolean
}

/** The response of routes that write bytes, set a status or must close the connection. */
export interface RawResponse {
  status(code: number): RawResponse
  set(field: string, value: string): RawResponse
  send(body: string | Buffer): RawResponse
  on(event: 'finish', listener: () => void): unknown
}

/**
 * Runs an upload route's work. When it fails before the request body was read to its end (a refused token, a body
 * cut off at its limit), the connection is closed once the error is answered, so the client does not go on sending.
 */
export async function readingUpload<T>(req: UploadRequest, res: RawResponse, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!req.complete) {
      res.set('Connection', 'close')
      // The socket may already be gone (the client hung up first): nothing left to close then.
      res.on('finish', () => req.socket?.destroy())
    }
    throw error
  }
}

/** Writes a non-JSON answer (a file) with its status and headers, in place of the envelope. */
export function sendRaw(
  res: RawResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): Envelope<never> {
  let answer = res.status(status)
  for (const [field, value] of Object.entries(headers)) answer = answer.set(field, value)
  // Only an answer caches may keep is tagged (entity-tag.ts), unless its route names its own tag (a tails file's hash).
  if (headers['Cache-Control']?.startsWith('public') && headers.ETag === undefined)
    answer = answer.set('ETag', entityTag(body))
  answer.send(body)
  // Returning the response object tells routing-controllers the answer is already written.
  return res as unknown as Envelope<never>
}
