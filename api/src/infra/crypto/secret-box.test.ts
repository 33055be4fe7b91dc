import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { silentLogger } from '@idplane/common'
import { SecretBox, SecretBoxError } from './secret-box'
import { hashToken, tokenMatchesHash } from './token-hash'

const aKey = () => randomBytes(32).toString('base64')

/** The sealed value with its last ciphertext byte flipped (replacing a base64 character could leave it as it was). */
const withFlippedByte = (sealed: string): string => {
  const [version, payload] = sealed.split(':', 2)
  const bytes = Buffer.from(payload, 'base64')
  bytes[bytes.length - 1] ^= 0x01
  return `${version}:${bytes.toString('base64')}`
}

describe('SecretBox', () => {
  const box = SecretBox.fromBase64(aKey())

  it('derives the same 32 bytes for the same key and info, and different bytes for another info or key', () => {
    const key = aKey()
    const derived = SecretBox.fromBase64(key).deriveKey('purpose-a')
    expect(derived).toHaveLength(32)
    expect(SecretBox.fromBase64(key).deriveKey('purpose-a')).toEqual(derived)
    expect(SecretBox.fromBase64(key).deriveKey('purpose-b')).not.toEqual(derived)
    expect(SecretBox.fromBase64(aKey()).deriveKey('purpose-a')).not.toEqual(derived)
  })

  it('opens what it sealed, with a version prefix and a fresh IV each time', () => {
    const first = box.seal('wallet-key', 'org-1')
    expect(first).toMatch(/^v1:/)
    expect(box.seal('wallet-key', 'org-1')).not.toBe(first)
    expect(box.open(first, 'org-1')).toBe('wallet-key')
  })

  it.each([
    ['another key', (sealed: string) => SecretBox.fromBase64(aKey()).open(sealed, 'org-1')],
    ['another context', (sealed: string) => box.open(sealed, 'org-2')],
    ['a changed byte', (sealed: string) => box.open(withFlippedByte(sealed), 'org-1')],
    ['an unknown version', (sealed: string) => box.open(sealed.replace(/^v1/, 'v9'), 'org-1')],
  ])('refuses a value opened with %s', (_name, open) => {
    const sealed = box.seal('api-key-value', 'org-1')
    expect(() => open(sealed)).toThrow(SecretBoxError)
  })

  it('opens a kept value once per sealed value and context, and refuses a wrong context as open does', () => {
    const sealed = box.seal('agent-api-key', 'org-1')
    const open = jest.spyOn(box, 'open')
    expect(box.openKept(sealed, 'org-1')).toBe('agent-api-key')
    expect(box.openKept(sealed, 'org-1')).toBe('agent-api-key')
    expect(open).toHaveBeenCalledTimes(1)
    expect(() => box.openKept(sealed, 'org-2')).toThrow(SecretBoxError)
    const resealed = box.seal('rotated-key', 'org-1')
    expect(box.openKept(resealed, 'org-1')).toBe('rotated-key')
    expect(open).toHaveBeenCalledTimes(3)
    open.mockRestore()
  })

  it('generates a key file once (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secret-box-'))
    try {
      const config = { secretsKeyFile: path.join(dir, 'secrets', 'encryption.key'), isEmbedded: true }
      const sealed = SecretBox.open(config, silentLogger).seal('x')
      expect(statSync(config.secretsKeyFile).mode & 0o777).toBe(0o600)
      expect(Buffer.from(readFileSync(config.secretsKeyFile, 'utf8').trim(), 'base64')).toHaveLength(32)
      expect(SecretBox.open(config, silentLogger).open(sealed)).toBe('x')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('token hashes', () => {
  it('match the token they were made from only', () => {
    const stored = hashToken('event-token-1')
    expect(tokenMatchesHash('event-token-1', stored)).toBe(true)
    expect(tokenMatchesHash('event-token-2', stored)).toBe(false)
    expect(tokenMatchesHash('event-token-1', 'abcd')).toBe(false)
  })
})
