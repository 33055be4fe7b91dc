import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto'

const FORMAT = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
/** scrypt cost: about 50 ms once per process start, which is when the wallet key is derived. */
const SCRYPT_OPTIONS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

/**
 * Seals private keys at rest: AES-256-GCM under a key derived from AGENT_WALLET_KEY with scrypt and a
 * per-database random salt. The associated data binds each sealed value to its row (context and key id),
 * so a sealed key copied to another row does not open.
 */
export class WalletKeyCipher {
  private constructor(private readonly key: Buffer) {}

  public static derive(walletKey: string, salt: Buffer): WalletKeyCipher {
    return new WalletKeyCipher(scryptSync(walletKey.normalize('NFKC'), salt, 32, SCRYPT_OPTIONS))
  }

  public static newSalt(): Buffer {
    return randomBytes(16)
  }

  public seal(plaintext: Buffer, associatedData: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(associatedData, 'utf8'))
    const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`
  }

  /** @throws {Error} when the value was sealed under another wallet key, for another row, or altered */
  public open(sealed: string, associatedData: string): Buffer {
    const [format, body] = sealed.split(':', 2)
    if (format !== FORMAT || body === undefined) throw new Error('Unknown sealed key format')
    const raw = Buffer.from(body, 'base64')
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(associatedData, 'utf8'))
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
  }
}
