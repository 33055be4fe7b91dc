import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { BoundedMap, ConfigError, IdplaneError, type Logger } from '@idplane/common'

/** Prefix of every sealed value: the format can change later without guessing what old rows hold. */
const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32
/** Values openKept remembers (a bound on memory: agents' API keys, webhook secrets). */
const KEPT_OPEN = 10_000

/** A sealed value that cannot be opened: wrong key, tampered data or an unknown format. */
export class SecretBoxError extends IdplaneError {}

/**
 * Encrypts secrets at rest (agent API keys, wallet keys, seeds) with AES-256-GCM under
 * SECRETS_ENCRYPTION_KEY. A sealed value is `v1:<base64 iv|tag|ciphertext>`; `context` (for example the
 * organization id) is bound as additional data, so a value copied to another row does not open there.
 */
export class SecretBox {
  /** openKept's plaintexts, by context and sealed value. */
  private readonly keptOpen = new BoundedMap<string, string>(KEPT_OPEN)

  private constructor(private readonly key: Buffer) {}

  /** @throws ConfigError when the key is not 32 bytes of base64 */
  public static fromBase64(key: string): SecretBox {
    const bytes = Buffer.from(key, 'base64')
    if (bytes.length !== KEY_BYTES) throw new ConfigError('SECRETS_ENCRYPTION_KEY: must be 32 bytes encoded as base64')
    return new SecretBox(bytes)
  }

  /**
   * The configured key, or (unset) a key generated once and kept in `keyFile` with mode 0600. Config
   * validation already refused the unset key where a local file would be lost (docs/configuration.md).
   */
  public static open(
    config: { secretsKey?: string; secretsKeyFile: string; isEmbedded: boolean },
    logger: Logger,
  ): SecretBox {
    if (config.secretsKey !== undefined) return SecretBox.fromBase64(config.secretsKey)
    let stored: string | undefined
    try {
      stored = readFileSync(config.secretsKeyFile, 'utf8').trim()
    } catch {
      stored = undefined
    }
    if (stored) return SecretBox.fromBase64(stored)
    const generated = randomBytes(KEY_BYTES).toString('base64')
    mkdirSync(path.dirname(config.secretsKeyFile), { recursive: true, mode: 0o700 })
    // wx: two processes starting at once never overwrite each other's key.
    try {
      writeFileSync(config.secretsKeyFile, `${generated}\n`, { mode: 0o600, flag: 'wx' })
      chmodSync(config.secretsKeyFile, 0o600)
    } catch {
      return SecretBox.fromBase64(readFileSync(config.secretsKeyFile, 'utf8').trim())
    }
    const log = config.isEmbedded ? logger.info.bind(logger) : logger.warn.bind(logger)
    log('Generated secrets encryption key', { file: config.secretsKeyFile })
    return new SecretBox(Buffer.from(generated, 'base64'))
  }

  /**
   * 32 bytes derived from the key with HKDF-SHA256 under a fixed `info` (one per purpose), so other secrets (the
   * ledger trustee's seed) survive restarts without a setting of their own and without exposing this key.
   */
  public deriveKey(info: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), Buffer.from(info, 'utf8'), KEY_BYTES))
  }

  public seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(context, 'utf8'))
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`
  }

  /** @throws SecretBoxError when the value was sealed under another key or context, or was changed */
  public open(sealed: string, context = ''): string {
    const [version, payload] = sealed.split(':', 2)
    if (version !== VERSION || payload === undefined) throw new SecretBoxError('Unknown sealed-secret format')
    const bytes = Buffer.from(payload, 'base64')
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('Sealed secret is truncated')
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
    } catch (error) {
      throw new SecretBoxError('Sealed secret could not be opened (wrong key or changed data)', { cause: error })
    }
  }

  /**
   * `open`, once per sealed value and context, the plaintext kept in this process's memory: for a secret the process
   * uses on every call (an agent's API key, a webhook's signing secret; docs/decisions.md, "API CPU per request").
   * It is the process's own secret, opened at will anyway. A value sealed anew is another key and is opened afresh.
   * @throws SecretBoxError as `open`
   */
  public openKept(sealed: string, context = ''): string {
    const key = `${context}\u0000${sealed}`
    const known = this.keptOpen.get(key)
    if (known !== undefined) return known
    const plaintext = this.open(sealed, context)
    this.keptOpen.set(key, plaintext)
    return plaintext
  }
}
