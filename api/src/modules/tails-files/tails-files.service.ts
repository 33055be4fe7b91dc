import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { inject, injectable } from 'inversify'
import { HttpError } from 'routing-controllers'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import { TAILS_FILES_PATH, type StoredTailsFile } from '@idplane/common/agent-contract/ledger'
import { decodeBase58, encodeBase58 } from '@idplane/common/base58'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { tailsFilesConfig } from './tails-files.config'
import { TailsFilesRepository } from './tails-files.repository'

/** anoncreds-rs' tails file: a 2-byte version tag (0, 2), then 2L + 1 G2 points of 128 bytes for a registry of L. */
const TAILS_VERSION = [0, 2] as const
const G2_BYTES = 128
/** The smallest registry the ledger takes (maxCredNum 2) has 5 tails. */
const MIN_TAILS = 5

/** 413: the upload is larger than TAILS_FILE_MAX_BYTES; the rest of the request is not read. */
export class TailsFileTooLargeError extends HttpError {
  public constructor(maxBytes: number) {
    super(413, `The tails file is larger than ${maxBytes} bytes (TAILS_FILE_MAX_BYTES)`)
    this.name = 'TailsFileTooLargeError'
    // HttpError's constructor resets the prototype to its own.
    Object.setPrototypeOf(this, TailsFileTooLargeError.prototype)
  }
}

/** base58(SHA-256(bytes)): a registry definition's `tailsHash`. */
export function tailsHashOf(bytes: Uint8Array): string {
  return encodeBase58(createHash('sha256').update(bytes).digest())
}

/**
 * Tails files of AnonCreds revocation registries (docs/decisions.md, "Tails files"): stored in the database under
 * their hash and served to anyone at `<API_PUBLIC_URL>/v1/tails-files/<hash>`. The platform checks the format (the
 * version tag and a whole, odd number of G2 points) but not the points: the holder that downloads a file checks its
 * hash against the registry definition before use, and a file whose points are wrong is a wrong hash.
 */
@injectable()
export class TailsFilesService {
  private readonly maxBytes: number
  private readonly publicUrl: string

  public constructor(
    private readonly files: TailsFilesRepository,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.maxBytes = sectionOf(config, tailsFilesConfig).maxBytes
    this.publicUrl = config.http.publicUrl.replace(/\/+$/, '')
  }

  /**
   * Reads an upload to its end (at most TAILS_FILE_MAX_BYTES) and stores it under its hash; idempotent.
   * @throws TailsFileTooLargeError (413), InvalidInputError (400) for what is not a tails file
   */
  public async upload(
    body: Readable,
    uploadedByOrgId: string | null,
  ): Promise<{ file: StoredTailsFile; isNew: boolean }> {
    const content = await this.readLimited(body)
    checkFormat(content)
    const hash = tailsHashOf(content)
    const isNew = (await this.files.sizeOf(hash)) === undefined
    if (isNew) await this.files.insertIfAbsent({ hash, content, uploadedByOrgId })
    return { file: this.describe(hash, content.length), isNew }
  }

  /** @throws InvalidInputError for what is not a tails hash, NotFoundError when no file has it */
  public async content(hash: string): Promise<Buffer> {
    checkHash(hash)
    const content = await this.files.content(hash)
    if (!content) throw new NotFoundError(`No tails file ${hash}`)
    return content
  }

  private describe(hash: string, size: number): StoredTailsFile {
    return { tailsHash: hash, tailsLocation: `${this.publicUrl}${TAILS_FILES_PATH}/${hash}`, size }
  }

  private async readLimited(body: Readable): Promise<Buffer> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += bytes.length
      if (size > this.maxBytes) throw new TailsFileTooLargeError(this.maxBytes)
      chunks.push(bytes)
    }
    return Buffer.concat(chunks, size)
  }
}

/** @throws InvalidInputError when the bytes are not laid out as an anoncreds-rs tails file */
function checkFormat(content: Buffer): void {
  const points = (content.length - TAILS_VERSION.length) / G2_BYTES
  const isTails =
    content[0] === TAILS_VERSION[0] &&
    content[1] === TAILS_VERSION[1] &&
    Number.isInteger(points) &&
    points % 2 === 1 &&
    points >= MIN_TAILS
  if (!isTails) {
    throw new InvalidInputError('Not a tails file', [
      {
        field: 'body',
        message: `body must be an anoncreds-rs tails file: version bytes 0 2, then an odd number (at least ${MIN_TAILS}) of 128-byte G2 points`,
      },
    ])
  }
}

/** @throws InvalidInputError unless `hash` is base58 of 32 bytes */
function checkHash(hash: string): void {
  if (hash.length <= 44 && decodeBase58(hash)?.length === 32) return
  throw new InvalidInputError('Invalid tails hash', [
    { field: 'tailsHash', message: 'tailsHash must be base58 of a SHA-256 digest' },
  ])
}
