import { legacyCredDefId, legacySchemaId, parseCredDefId, parseSchemaId } from '@idplane/common/ledger-ids'

/** Kinds of platform records that name a ledger object. */
export type LedgerReferenceKind = 'schema' | 'credentialDefinition'

/** A platform record's ledger id (an INDY schema's, or a created credential definition's). */
export interface LedgerReference {
  recordId: string
  kind: LedgerReferenceKind
  ledgerId: string
}

/** The platform's records that name ledger objects, in pages (record id order). */
export interface LedgerReferenceSource {
  referencesPage(
    kind: LedgerReferenceKind,
    afterRecordId: string | undefined,
    limit: number,
  ): Promise<LedgerReference[]>
}

/** The ledger's side: which of `objectIds` name a transaction (a DID names its NYM). */
export interface LedgerObjectSource {
  existingObjectIds(objectIds: readonly string[]): Promise<Set<string>>
}

export interface ReferenceCheck {
  isValid: boolean
  /** Records whose ledger id belongs to this ledger, each looked up. */
  checked: number
  /** Records whose ledger id belongs to another registry: another namespace, or an issuer with no NYM here. */
  elsewhere: number
  /** How many checked records name an object this ledger does not hold. */
  danglingCount: number
  /** The first of them (at most MAX_LISTED_DANGLING), by kind and ledger id. */
  dangling: { kind: LedgerReferenceKind; ledgerId: string }[]
}

const PAGE = 500
export const MAX_LISTED_DANGLING = 20

/** Where a ledger id points: this ledger's object (legacy id), a legacy id whose DID decides, or elsewhere. */
type Target = { objectId: string; did: string; isQualified: boolean } | undefined

/**
 * The object a ledger id names, in its legacy form (the ledger's object id). did:indy ids of this namespace are
 * this ledger's; legacy ids are when their DID has a NYM here (an agent's test registry also makes legacy ids);
 * anything else is another registry's.
 */
export function ledgerTargetOf(reference: LedgerReference, namespace: string): Target {
  const ref = reference.kind === 'schema' ? parseSchemaId(reference.ledgerId) : parseCredDefId(reference.ledgerId)
  if (!ref || (ref.namespace !== undefined && ref.namespace !== namespace)) return undefined
  const objectId = 'schemaSeqNo' in ref ? legacyCredDefId(ref) : legacySchemaId(ref)
  return { objectId, did: ref.did, isQualified: ref.namespace !== undefined }
}

/**
 * Checks that every schema and credential definition record of the platform that names this ledger points at a
 * transaction on it (issue 23, item 7): a record left dangling by a ledger that lost rows.
 */
export async function checkReferences(
  records: LedgerReferenceSource,
  ledger: LedgerObjectSource,
  namespace: string,
): Promise<ReferenceCheck> {
  const result: ReferenceCheck = { isValid: true, checked: 0, elsewhere: 0, danglingCount: 0, dangling: [] }
  for (const kind of ['schema', 'credentialDefinition'] as const) {
    let after: string | undefined
    for (;;) {
      const page = await records.referencesPage(kind, after, PAGE)
      await checkPage(ledger, namespace, page, result)
      if (page.length < PAGE) break
      after = page.at(-1)?.recordId
    }
  }
  result.isValid = result.danglingCount === 0
  return result
}

async function checkPage(
  source: LedgerObjectSource,
  namespace: string,
  page: LedgerReference[],
  result: ReferenceCheck,
): Promise<void> {
  const targets = page.map((reference) => ({ reference, target: ledgerTargetOf(reference, namespace) }))
  const legacyDids = targets.flatMap(({ target }) => (target && !target.isQualified ? [target.did] : []))
  const nyms = await source.existingObjectIds([...new Set(legacyDids)])
  const onThisLedger = targets.filter(({ target }) => target && (target.isQualified || nyms.has(target.did)))
  result.elsewhere += page.length - onThisLedger.length
  const found = await source.existingObjectIds(onThisLedger.map(({ target }) => target?.objectId ?? ''))
  for (const { reference, target } of onThisLedger) {
    result.checked += 1
    if (target && found.has(target.objectId)) continue
    result.danglingCount += 1
    if (result.dangling.length < MAX_LISTED_DANGLING) {
      result.dangling.push({ kind: reference.kind, ledgerId: reference.ledgerId })
    }
  }
}
