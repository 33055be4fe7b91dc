import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Checks `Authorization: Bearer <AGENT_API_KEY>`. Both sides are hashed first so the comparison takes the
 * same time whatever the length of the guess, and the key itself is never compared byte by byte.
 */
export class ApiKeyCheck {
  private readonly expected: Buffer

  public constructor(apiKey: string) {
    this.expected = createHash('sha256').update(apiKey, 'utf8').digest()
  }

  public isAuthorized(authorization: string | undefined): boolean {
    const match = /^Bearer (.+)$/.exec(authorization ?? '')
    if (!match) return false
    return timingSafeEqual(createHash('sha256').update(match[1], 'utf8').digest(), this.expected)
  }
}
