import {
  indyCredDefId,
  indyRevRegId,
  indySchemaId,
  legacyRevRegId,
  parseCredDefId,
  parseDid,
  parseRevRegId,
  parseSchemaId,
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
