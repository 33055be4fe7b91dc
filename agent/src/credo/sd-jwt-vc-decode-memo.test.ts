import { createHash, generateKeyPairSync } from 'node:crypto'

import { Hasher, Kms, SdJwtVcRecord } from '@credo-ts/core'

import { expectSameShape } from '../../../test/helpers/same-shape'
import { rememberSdJwtVcDecodes } from './sd-jwt-vc-decode-memo'

type FirstCredential = SdJwtVcRecord['firstCredential']
const credosFirstCredential = Object.getOwnPropertyDescriptor(SdJwtVcRecord.prototype, 'firstCredential')?.get as (
  this: SdJwtVcRecord,
) => FirstCredential
const credosGetTags = SdJwtVcRecord.prototype.getTags

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const holderKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' })

/**
 * An SD-JWT VC as an issuer sends it, made here: its claims as disclosures, their digests in the payload, a holder
 * key in `cnf`. Decoding reads no signature, so the last part of the JWT is a stand-in.
 */
function anSdJwtVc(claims: Record<string, unknown>, vct = 'https://example.org/employee'): string {
  const disclosures = Object.entries(claims).map(([name, value], index) => base64url([`salt-${index}`, name, value]))
  const payload = {
    iss: 'https://issuer.example.org',
    vct,
    iat: 1764900000,
    cnf: { jwk: holderKey },
    _sd_alg: 'sha-256',
    _sd: disclosures.map((disclosure) => createHash('sha256').update(disclosure).digest('base64url')),
  }
  const jwt = `${base64url({ alg: 'ES256', typ: 'dc+sd-jwt' })}.${base64url(payload)}.c2lnbmF0dXJl`
  return `${jwt}~${disclosures.join('~')}~`
}

const held = (text: string, options: { kmsKeyId?: string; tags?: Record<string, string> } = {}) =>
  new SdJwtVcRecord({
    credentialInstances: [{ compactSdJwtVc: text, kmsKeyId: options.kmsKeyId }],
    tags: options.tags as never,
  })

const ADA = anSdJwtVc({ given_name: 'Ada', family_name: 'Lovelace', age: 36, address: { locality: 'London' } })
const GRACE = anSdJwtVc({ given_name: 'Grace', family_name: 'Hopper' }, 'https://example.org/admiral')

describe('rememberSdJwtVcDecodes', () => {
  beforeAll(() => rememberSdJwtVcDecodes())

  it("gives the decoded credential as Credo's getter does, a copy each time, decoded once per text", () => {
    const expected = credosFirstCredential.call(held(ADA))
    expect(expected.prettyClaims).toMatchObject({ given_name: 'Ada', address: { locality: 'London' } })
    const hash = jest.spyOn(Hasher, 'hash')
    try {
      // Two records of one text, as a query returns each held credential anew.
      const first = held(ADA).firstCredential
      const second = held(ADA).firstCredential
      for (const copy of [first, second]) expectSameShape(copy, expected)
      expect(second).not.toBe(first)
      expect(first.holder?.method === 'jwk' && first.holder.jwk).toBeInstanceOf(Kms.PublicJwk)
      // Four disclosures hashed for the first read, none for the second.
      expect(hash).toHaveBeenCalledTimes(4)
    } finally {
      hash.mockRestore()
    }
  })

  it('keeps nothing a reader changed, and tells texts, type metadata and key ids apart', () => {
    const first = held(ADA).firstCredential
    ;(first.prettyClaims as Record<string, unknown>).given_name = 'Mallory'
    expect(held(ADA).firstCredential.prettyClaims).toMatchObject({ given_name: 'Ada' })

    expect(held(GRACE).firstCredential.prettyClaims).toMatchObject({ given_name: 'Grace' })
    expect(held(ADA, { kmsKeyId: 'key-1' }).firstCredential.kmsKeyId).toBe('key-1')
    expect(held(ADA, { kmsKeyId: 'key-2' }).firstCredential.kmsKeyId).toBe('key-2')
    const typed = held(ADA)
    typed.typeMetadata = { vct: 'https://example.org/employee', name: 'Employee' }
    expect(typed.firstCredential.typeMetadata).toEqual({ vct: 'https://example.org/employee', name: 'Employee' })
    expect(held(ADA).firstCredential.typeMetadata).toBeUndefined()
  })

  it("gives the tags Credo gives, the record's own ones read each time, the text decoded once", () => {
    const record = held(GRACE, { tags: { label: 'work' } })
    const expected = credosGetTags.call(record)
    expect(expected).toMatchObject({ vct: 'https://example.org/admiral', sdAlg: 'sha-256', alg: 'ES256' })
    expect(record.getTags()).toEqual(expected)
    const hash = jest.spyOn(Hasher, 'hash')
    try {
      const other = held(GRACE, { tags: { label: 'home' } })
      expect(other.getTags()).toEqual(credosGetTags.call(other))
      expect(other.getTags()).toMatchObject({ label: 'home', vct: 'https://example.org/admiral' })
      other.setTag('label', 'archived')
      expect(other.getTags()).toEqual(credosGetTags.call(other))
      // Only Credo's own calls above hashed (two disclosures each).
      expect(hash).toHaveBeenCalledTimes(4)
    } finally {
      hash.mockRestore()
    }
  })

  it('keeps no credential whose type metadata is over the bound, and decodes it each time', () => {
    const record = held(GRACE)
    record.typeMetadata = { vct: 'https://example.org/admiral', description: 'x'.repeat(70 * 1024) }
    const hash = jest.spyOn(Hasher, 'hash')
    try {
      for (let attempt = 0; attempt < 2; attempt++)
        expect(record.firstCredential.typeMetadata).toEqual(record.typeMetadata)
      expect(hash).toHaveBeenCalledTimes(4)
    } finally {
      hash.mockRestore()
    }
  })

  it('still refuses a text that does not decode, every time', () => {
    const broken = held('not-a-jwt~')
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => broken.firstCredential).toThrow()
      expect(() => broken.getTags()).toThrow()
    }
  })

  // Last: it turns the tags' memo off for the rest of the process.
  it("leaves every later read of the tags to Credo once Credo's answer and the memo's differ", () => {
    // A record whose field changes between two reads stands in for a Credo whose tags the memo no longer puts together.
    let reads = 0
    class Drifting extends SdJwtVcRecord {
      public override get extendedVctValues(): string[] {
        reads++
        return [`https://example.org/version-${reads}`]
      }
    }
    const drifting = new Drifting({
      credentialInstances: [{ compactSdJwtVc: anSdJwtVc({ nickname: 'Amazing' }, 'https://example.org/drifting') }],
    })
    expect(drifting.getTags()).toMatchObject({ vct: 'https://example.org/drifting' })
    const hash = jest.spyOn(Hasher, 'hash')
    try {
      // GRACE's tags were kept above; now Credo decodes its two disclosures again.
      expect(held(GRACE).getTags()).toMatchObject({ vct: 'https://example.org/admiral' })
      expect(hash).toHaveBeenCalledTimes(2)
    } finally {
      hash.mockRestore()
    }
  })
})
