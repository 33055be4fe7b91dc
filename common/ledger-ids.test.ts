import {
  indyRevRegId,
  legacyRevRegId,
  parseRevRegId,
  credDefIdForms,
  indyCredDefId,
  indySchemaId,
  isIndyCredentialDefinitionId,
  isIndyDid,
  isIndySchemaId,
  parseCredDefId,
  parseDid,
  parseSchemaId,
  schemaIdForms,
} from './ledger-ids'

const DID = 'Th7MpTaRZVRYnPiabds81Y'

describe('ledger ids', () => {
  it('parses legacy and did:indy schema ids to the same parts', () => {
    expect(parseSchemaId(`${DID}:2:degree:1.0`)).toEqual({ did: DID, name: 'degree', version: '1.0' })
    expect(parseSchemaId(`did:indy:idplane:test:${DID}/anoncreds/v0/SCHEMA/degree/1.0`)).toEqual({
      namespace: 'idplane:test',
      did: DID,
      name: 'degree',
      version: '1.0',
    })
    expect(indySchemaId('idplane', { did: DID, name: 'degree', version: '1.0' })).toBe(
      `did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/degree/1.0`,
    )
  })

  it('parses legacy and did:indy cred-def ids', () => {
    expect(parseCredDefId(`${DID}:3:CL:12:default`)).toEqual({ did: DID, schemaSeqNo: 12, tag: 'default' })
    expect(parseCredDefId(`did:indy:idplane:${DID}/anoncreds/v0/CLAIM_DEF/12/default`)).toEqual({
      namespace: 'idplane',
      did: DID,
      schemaSeqNo: 12,
      tag: 'default',
    })
    expect(indyCredDefId('idplane', { did: DID, schemaSeqNo: 12, tag: 'default' })).toBe(
      `did:indy:idplane:${DID}/anoncreds/v0/CLAIM_DEF/12/default`,
    )
  })

  it.each([
    '',
    'not-an-id',
    `${DID}:2:degree`,
    `${DID}:2:degree:one`,
    `${DID}:2:de:gree:1.0`,
    `0OIl${DID.slice(4)}:2:degree:1.0`,
    `did:indy:Bad:${DID}/anoncreds/v0/SCHEMA/degree/1.0`,
    `did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/deg/ree/1.0`,
    `${DID}:2:nul\u0000:1.0`,
  ])('refuses the malformed schema id %j', (id) => {
    expect(parseSchemaId(id)).toBeUndefined()
  })

  it.each(['', `${DID}:3:CL:0:default`, `${DID}:3:CL:x:default`, `${DID}:3:XX:1:default`, `${DID}:3:CL:1:`])(
    'refuses the malformed cred-def id %j',
    (id) => {
      expect(parseCredDefId(id)).toBeUndefined()
    },
  )

  it('parses DIDs in the three forms and refuses others', () => {
    expect(parseDid(DID)).toEqual({ method: 'bare', did: DID })
    expect(parseDid(`did:sov:${DID}`)).toEqual({ method: 'sov', did: DID })
    expect(parseDid(`did:indy:idplane:${DID}`)).toEqual({ method: 'indy', namespace: 'idplane', did: DID })
    for (const bad of ['did:web:example.org', `did:indy:${DID}`, `did:sov:${DID}x0`, 'short']) {
      expect(parseDid(bad)).toBeUndefined()
    }
  })
})

describe('Indy identifiers (shape checks)', () => {
  it('knows legacy and did:indy DIDs, and nothing else', () => {
    expect(isIndyDid(DID)).toBe(true)
    expect(isIndyDid(`did:indy:sovrin:${DID}`)).toBe(true)
    expect(isIndyDid(`did:indy:sovrin:staging:${DID}`)).toBe(true)
    expect(isIndyDid(`did:indy:idplane-test:${DID}`)).toBe(true)
    expect(isIndyDid('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')).toBe(false)
    expect(isIndyDid(`did:sov:${DID}`)).toBe(false)
    // 0, O, I and l are not base58.
    expect(isIndyDid('Th7MpTaRZVRYnPiabds810')).toBe(false)
    expect(isIndyDid('short')).toBe(false)
  })

  it('accepts schema ids in the legacy and the did:indy form', () => {
    expect(isIndySchemaId(`${DID}:2:degree:1.0`)).toBe(true)
    expect(isIndySchemaId(`${DID}:2:Employee badge:2.1.3`)).toBe(true)
    expect(isIndySchemaId(`did:indy:sovrin:${DID}/anoncreds/v0/SCHEMA/degree/1.0`)).toBe(true)
  })

  it.each([
    '',
    'degree',
    `${DID}:2:degree`,
    `${DID}:3:degree:1.0`,
    `${DID}:2:degree:v1`,
    `${DID}:2:a:b:1.0`,
    `did:indy:sovrin:${DID}/anoncreds/v0/CLAIM_DEF/12/tag`,
    `did:key:z6Mk/anoncreds/v0/SCHEMA/degree/1.0`,
    'https://example.com/schemas/1',
    `${DID}:2:degree:1.0`.padEnd(3000, '0'),
    `${DID}:2:deg\u0000ree:1.0`,
    `${DID}:2:deg\nree:1.0`,
  ])('refuses the schema id %j', (id) => {
    expect(isIndySchemaId(id)).toBe(false)
  })

  it('accepts credential definition ids in the legacy and the did:indy form', () => {
    expect(isIndyCredentialDefinitionId(`${DID}:3:CL:1234:default`)).toBe(true)
    expect(isIndyCredentialDefinitionId(`did:indy:sovrin:${DID}/anoncreds/v0/CLAIM_DEF/1234/default`)).toBe(true)
  })

  it.each([
    '',
    `${DID}:3:CL:0:default`,
    `${DID}:3:CL:12`,
    `${DID}:3:XX:12:default`,
    `${DID}:2:degree:1.0`,
    `${DID}:3:CL:12:a/b`,
    '5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a10',
    `${DID}:3:CL:12:de\u0000fault`,
  ])('refuses the credential definition id %j', (id) => {
    expect(isIndyCredentialDefinitionId(id)).toBe(false)
  })
})

describe('both forms of one id', () => {
  it('gives the legacy form always and the did:indy form when the namespace is known', () => {
    const legacy = `${DID}:3:CL:12:default`
    const qualified = `did:indy:idplane:${DID}/anoncreds/v0/CLAIM_DEF/12/default`
    expect(credDefIdForms(legacy)).toEqual({ legacy, didIndy: null })
    expect(credDefIdForms(legacy, 'idplane')).toEqual({ legacy, didIndy: qualified })
    // A did:indy id keeps its own namespace.
    expect(credDefIdForms(qualified, 'other')).toEqual({ legacy, didIndy: qualified })
    expect(schemaIdForms(`did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/degree/1.0`)).toEqual({
      legacy: `${DID}:2:degree:1.0`,
      didIndy: `did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/degree/1.0`,
    })
    expect(credDefIdForms('5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a10')).toBeUndefined()
    expect(schemaIdForms(`${DID}:2:degree:1.0`.padEnd(3000, '0'))).toBeUndefined()
  })
})

describe('revocation registry ids', () => {
  it('parses legacy and did:indy revocation registry ids (the did:indy method REV_REG_DEF path)', () => {
    const legacy = `${DID}:4:${DID}:3:CL:12:default:CL_ACCUM:r1`
    const indy = `did:indy:idplane:${DID}/anoncreds/v0/REV_REG_DEF/12/default/r1`
    const parts = { did: DID, schemaSeqNo: 12, credDefTag: 'default', tag: 'r1' }
    expect(parseRevRegId(legacy)).toEqual(parts)
    expect(parseRevRegId(indy)).toEqual({ namespace: 'idplane', ...parts })
    expect(legacyRevRegId(parts)).toBe(legacy)
    expect(indyRevRegId('idplane', parts)).toBe(indy)
    for (const bad of [
      `${DID}:4:Zh7MpTaRZVRYnPiabds81Y:3:CL:12:default:CL_ACCUM:r1`,
      `${DID}:4:${DID}:3:CL:0:default:CL_ACCUM:r1`,
      `${DID}:4:${DID}:3:CL:12:default:CL_ACCUM:`,
      `did:indy:idplane:${DID}/anoncreds/v0/REV_REG_DEF/12/default`,
      `did:indy:idplane:${DID}/anoncreds/v0/REV_REG_DEF/12/default/r1/x`,
    ])
      expect(parseRevRegId(bad)).toBeUndefined()
  })
})
