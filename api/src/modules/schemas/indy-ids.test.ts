import { isIndyCredentialDefinitionId, isIndyDid, isIndySchemaId } from './indy-ids'

const DID = 'Th7MpTaRZVRYnPiabds81Y'

describe('Indy identifiers', () => {
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
    expect(isIndyCredentialDefinitionId(`${DID}:3:CL:${DID}:2:degree:1.0:default`)).toBe(true)
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
