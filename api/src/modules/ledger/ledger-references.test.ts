import {
  checkReferences,
  ledgerTargetOf,
  MAX_LISTED_DANGLING,
  type LedgerReference,
  type LedgerReferenceKind,
} from './ledger-references'

const NS = 'idplane'
const DID = 'VGekVpqihCAwQWMtQ7gNTV'
const STRANGER = 'Th7MpTaRZVRYnPiabds81Y'

const schema = (ledgerId: string, recordId = ledgerId): LedgerReference => ({ recordId, kind: 'schema', ledgerId })
const credDef = (ledgerId: string, recordId = ledgerId): LedgerReference => ({
  recordId,
  kind: 'credentialDefinition',
  ledgerId,
})

/** Records in pages as the repository gives them, and a ledger holding `objects` (DIDs name their NYMs). */
function sources(references: LedgerReference[], objects: string[]) {
  const pages: { kind: LedgerReferenceKind; after: string | undefined }[] = []
  return {
    pages,
    records: {
      referencesPage: async (kind: LedgerReferenceKind, after: string | undefined, limit: number) => {
        pages.push({ kind, after })
        const ofKind = references
          .filter((reference) => reference.kind === kind)
          .sort((a, b) => (a.recordId < b.recordId ? -1 : 1))
        return ofKind.filter((reference) => after === undefined || reference.recordId > after).slice(0, limit)
      },
    },
    ledger: { existingObjectIds: async (ids: readonly string[]) => new Set(ids.filter((id) => objects.includes(id))) },
  }
}

describe('ledgerTargetOf', () => {
  it('names the legacy object of both id forms of this namespace, and nothing for other registries', () => {
    expect(ledgerTargetOf(schema(`${DID}:2:degree:1.0`), NS)).toEqual({
      objectId: `${DID}:2:degree:1.0`,
      did: DID,
      isQualified: false,
    })
    expect(ledgerTargetOf(schema(`did:indy:${NS}:${DID}/anoncreds/v0/SCHEMA/degree/1.0`), NS)).toEqual({
      objectId: `${DID}:2:degree:1.0`,
      did: DID,
      isQualified: true,
    })
    expect(ledgerTargetOf(credDef(`did:indy:${NS}:${DID}/anoncreds/v0/CLAIM_DEF/7/default`), NS)?.objectId).toBe(
      `${DID}:3:CL:7:default`,
    )
    expect(ledgerTargetOf(schema(`did:indy:other:${DID}/anoncreds/v0/SCHEMA/degree/1.0`), NS)).toBeUndefined()
    expect(ledgerTargetOf(schema('did:key:z6Mk/anoncreds/v0/SCHEMA/degree/1.0'), NS)).toBeUndefined()
    expect(ledgerTargetOf(credDef(`${DID}:2:degree:1.0`), NS)).toBeUndefined()
  })
})

describe('checkReferences', () => {
  it('finds a dangling record, counts records of other registries apart and pages through every record', async () => {
    const on = `${DID}:2:degree:1.0`
    const { records, ledger, pages } = sources(
      [
        schema(on, 'a'),
        schema(`did:indy:${NS}:${DID}/anoncreds/v0/SCHEMA/gone/1.0`, 'b'),
        schema(`${STRANGER}:2:test-registry:1.0`, 'c'),
        credDef(`did:indy:other:${DID}/anoncreds/v0/CLAIM_DEF/7/default`, 'd'),
        credDef(`${DID}:3:CL:9:default`, 'e'),
      ],
      [DID, on],
    )
    expect(await checkReferences(records, ledger, NS)).toEqual({
      isValid: false,
      checked: 3,
      elsewhere: 2,
      danglingCount: 2,
      dangling: [
        { kind: 'schema', ledgerId: `did:indy:${NS}:${DID}/anoncreds/v0/SCHEMA/gone/1.0` },
        { kind: 'credentialDefinition', ledgerId: `${DID}:3:CL:9:default` },
      ],
    })
    expect(pages.map((page) => page.kind)).toEqual(['schema', 'credentialDefinition'])
  })

  it('pages by record id and lists at most the first dangling records', async () => {
    const many = Array.from({ length: 1200 }, (_, index) =>
      schema(`${DID}:2:s${index}:1.0`, String(index).padStart(5, '0')),
    )
    const { records, ledger, pages } = sources(many, [DID])
    const result = await checkReferences(records, ledger, NS)
    expect(result).toMatchObject({ isValid: false, checked: 1200, danglingCount: 1200 })
    expect(result.dangling).toHaveLength(MAX_LISTED_DANGLING)
    expect(pages.filter((page) => page.kind === 'schema').map((page) => page.after)).toEqual([
      undefined,
      '00499',
      '00999',
    ])
  })

  it('is valid when every record of this ledger points at a transaction', async () => {
    const { records, ledger } = sources([schema(`${DID}:2:degree:1.0`)], [DID, `${DID}:2:degree:1.0`])
    expect(await checkReferences(records, ledger, NS)).toEqual({
      isValid: true,
      checked: 1,
      elsewhere: 0,
      danglingCount: 0,
      dangling: [],
    })
  })
})
