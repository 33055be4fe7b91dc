import { randomBytes } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { ShortUrlsRepository } from './short-urls.repository'
import { shortUrlsConfig } from './short-urls.config'

/** The public path of short links, outside `/v1` so the links stay short. */
export const SHORT_URL_PATH = '/s'

/** What a short link resolves to: the long URL and, when it carries one, the invitation it encodes. */
export interface ResolvedShortUrl {
  targetUrl: string
  invitation?: Record<string, unknown>
}

/**
 * Short links for out-of-band invitations. A holder that fetches one with `Accept: application/json` (as Credo
 * does) gets the invitation JSON; a browser is redirected to the long URL.
 */
@injectable()
export class ShortUrls {
  private readonly publicUrl: string
  private readonly ttlSeconds: number

  public constructor(
    private readonly links: ShortUrlsRepository,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.publicUrl = config.http.publicUrl.replace(/\/$/, '')
    this.ttlSeconds = sectionOf(config, shortUrlsConfig).ttlSeconds
  }

  /** Stores a short link to `targetUrl` (in the caller's transaction, if any) and returns its public URL. */
  public async shorten(targetUrl: string, owner: { orgId: string | null }): Promise<string> {
    const link = await this.links.add({
      code: randomBytes(16).toString('base64url'),
      orgId: owner.orgId,
      targetUrl,
      expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
    })
    return `${this.publicUrl}${SHORT_URL_PATH}/${link.code}`
  }

  /**
   * The link's target.
   * @throws NotFoundError for an unknown or expired code (an expired row is deleted)
   */
  public async resolve(code: string): Promise<ResolvedShortUrl> {
    const link = /^[A-Za-z0-9_-]{1,32}$/.test(code) ? await this.links.findByCode(code) : null
    if (!link) throw new NotFoundError('This invitation link does not exist')
    if (link.expiresAt.getTime() <= Date.now()) {
      await this.links.delete(link)
      throw new NotFoundError('This invitation link has expired; ask the sender for a new one')
    }
    return { targetUrl: link.targetUrl, invitation: invitationIn(link.targetUrl) }
  }
}

/** The invitation an out-of-band URL carries in its `oob` (or legacy `c_i`/`d_m`) parameter, base64url JSON. */
export function invitationIn(url: string): Record<string, unknown> | undefined {
  try {
    const params = new URL(url).searchParams
    const encoded = params.get('oob') ?? params.get('c_i') ?? params.get('d_m')
    if (!encoded) return undefined
    const parsed: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
