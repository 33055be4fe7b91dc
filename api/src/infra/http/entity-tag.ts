import { createHash } from 'node:crypto'

/**
 * The ETag of a body. The app computes none by itself (createApp sets Express's `etag` off): every answer is
 * `Cache-Control: no-store` unless its route says otherwise, and a tag on an answer no cache keeps only costs a hash of
 * every body. A route whose answer caches may keep (a published schema, a status list) sets this tag before `send`,
 * which then answers a matching `If-None-Match` with 304, as Express did for every answer.
 */
export function entityTag(body: string | Buffer): string {
  return `"${Buffer.byteLength(body).toString(16)}-${createHash('sha1').update(body).digest('base64url')}"`
}
