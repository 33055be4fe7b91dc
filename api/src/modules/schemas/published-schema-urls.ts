import { inject, injectable } from 'inversify'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'

/** The public path of published JSON schemas, outside `/v1` (a schema URL outlives API versions). */
export const PUBLISHED_SCHEMA_PATH = '/schemas'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/** The public URLs of the platform's JSON schemas: `<API_PUBLIC_URL>/schemas/<record id>`. */
@injectable()
export class PublishedSchemaUrls {
  private readonly prefix: string

  public constructor(@inject(TOKENS.Config) config: Config) {
    this.prefix = `${config.http.publicUrl.replace(/\/$/, '')}${PUBLISHED_SCHEMA_PATH}/`
  }

  public urlOf(schemaId: string): string {
    return `${this.prefix}${schemaId}`
  }

  /** Whether `url` is under the platform's schema path (whatever follows it). */
  public isOurs(url: string): boolean {
    return url.startsWith(this.prefix)
  }

  /** The record id a URL of ours names, or undefined when it is not one of ours or names no well-formed id. */
  public idOf(url: string): string | undefined {
    if (!this.isOurs(url)) return undefined
    const id = url.slice(this.prefix.length)
    return isUuid(id) ? id.toLowerCase() : undefined
  }
}
