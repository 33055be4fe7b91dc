import { injectable } from 'inversify'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import { buildDidDocument } from './ledger-did-document'
import { LedgerHead } from './ledger-head.service'
import {
  indyCredDefId,
  indySchemaId,
  legacyCredDefId,
  legacyRevRegId,
  legacySchemaId,
  parseCredDefId,
  parseDid,
  parseRevRegId,
  parseSchemaId,
  type DidRef,
  type RevRegRef,
} from '@idplane/common/ledger-ids'
import type {
  AttribPayload,
  CredDefPayload,
  RevRegDefPayload,
  RevRegEntryPayload,
  SchemaPayload,
} from './ledger-payloads'
import { LedgerTrustee } from './ledger-trustee'
import {
  toTransactionView,
  type CredDefView,
  type DidState,
  type RevocationStatusListView,
  type RevRegDefView,
  type SchemaView,
  type TransactionView,
} from './ledger-views'
import type { DefinitionsLedger } from '../cred-defs/definitions-ledger'
import { LedgerRepository } from './ledger.repository'

/** A ledger DID resolved: its document and the ledger's metadata about it. */
export interface DidResolution {
  didDocument: Record<string, unknown>
  didDocumentMetadata: Record<string, unknown>
}

/**
 * The ledger's public reads: transactions, schemas and credential definitions by either id form, DID documents,
 * and a DID's state (the binding its next write must carry). Reads never need a key or a binding.
 */
@injectable()
export class LedgerReadsService implements DefinitionsLedger {
  public readonly namespace: string

  public constructor(
    private readonly transactions: LedgerRepository,
    private readonly head: LedgerHead,
    trustee: LedgerTrustee,
  ) {
    this.namespace = trustee.namespace
  }

  /** @throws NotFoundError when there is no such transaction */
  public async transaction(seqNo: number): Promise<TransactionView> {
    const found = await this.transactions.findBySeqNo(seqNo)
    if (!found) throw new NotFoundError(`No ledger transaction ${seqNo}`)
    return toTransactionView(found, this.namespace)
  }

  public async transactionsFrom(from: number, limit: number): Promise<TransactionView[]> {
    await this.head.ensureGenesis()
    return (await this.transactions.list(from, limit)).map((txn) => toTransactionView(txn, this.namespace))
  }

  /**
   * What a write by `did` must be bound to: the seqNo of its latest transaction, 0 for a DID not on the ledger.
   * @throws InvalidInputError malformed, NotFoundError a did:indy of another namespace
   */
  public async didState(didOrId: string): Promise<DidState> {
    const ref = this.didRef(didOrId)
    return { did: ref.did, lastSeqNo: await this.transactions.lastSeqNoOf(ref.did) }
  }

  /** @throws InvalidInputError for a malformed id, NotFoundError when absent (or in another namespace) */
  public async schema(schemaId: string): Promise<SchemaView> {
    const ref = parseSchemaId(schemaId)
    if (!ref)
      throw new InvalidInputError('Invalid schema id', [{ field: 'schemaId', message: 'schemaId is malformed' }])
    if (ref.namespace !== undefined && ref.namespace !== this.namespace) {
      throw new NotFoundError(`No schema ${schemaId} on this ledger (namespace ${this.namespace})`)
    }
    const found = await this.transactions.findByObjectId(legacySchemaId(ref))
    if (!found || found.type !== 'SCHEMA') throw new NotFoundError(`No schema ${schemaId} on this ledger`)
    const payload = found.payload as unknown as SchemaPayload
    return {
      schemaId,
      schema: { issuerId: this.issuerIdFor(schemaId, found.authorDid), ...payload },
      seqNo: found.seqNo,
      txnTime: found.txnTime,
    }
  }

  /** DefinitionsLedger: a schema's sequence number, undefined when this ledger holds none under that id. */
  public async schemaSeqNo(schemaId: string): Promise<number | undefined> {
    const ref = parseSchemaId(schemaId)
    if (!ref || (ref.namespace !== undefined && ref.namespace !== this.namespace)) return undefined
    const found = await this.transactions.findByObjectId(legacySchemaId(ref))
    return found?.type === 'SCHEMA' ? found.seqNo : undefined
  }

  /** @throws InvalidInputError for a malformed id, NotFoundError when absent (or in another namespace) */
  public async credentialDefinition(credDefId: string): Promise<CredDefView> {
    const ref = parseCredDefId(credDefId)
    if (!ref) {
      throw new InvalidInputError('Invalid credential definition id', [
        { field: 'credDefId', message: 'credDefId is malformed' },
      ])
    }
    if (ref.namespace !== undefined && ref.namespace !== this.namespace) {
      throw new NotFoundError(`No credential definition ${credDefId} on this ledger (namespace ${this.namespace})`)
    }
    const found = await this.transactions.findByObjectId(legacyCredDefId(ref))
    if (!found || found.type !== 'CRED_DEF')
      throw new NotFoundError(`No credential definition ${credDefId} on this ledger`)
    const payload = found.payload as unknown as CredDefPayload
    const isIndy = ref.namespace !== undefined
    const schemaRef = parseSchemaId(payload.schemaId)
    return {
      credentialDefinitionId: credDefId,
      credentialDefinition: {
        issuerId: this.issuerIdFor(credDefId, found.authorDid),
        // A did:indy cred-def names its schema by its did:indy id too (what Credo's anoncreds format expects).
        schemaId: isIndy && schemaRef ? indySchemaId(this.namespace, schemaRef) : payload.schemaId,
        type: 'CL',
        tag: payload.tag,
        value: payload.value,
      },
      seqNo: found.seqNo,
      txnTime: found.txnTime,
    }
  }

  /** @throws InvalidInputError for a malformed id, NotFoundError when absent (or in another namespace) */
  public async revocationRegistryDefinition(revRegDefId: string): Promise<RevRegDefView> {
    const { ref, found } = await this.findRevRegDef(revRegDefId)
    const payload = found.payload as unknown as RevRegDefPayload
    const credDefRef = parseCredDefId(payload.credDefId)
    return {
      revocationRegistryDefinitionId: revRegDefId,
      revocationRegistryDefinition: {
        issuerId: this.issuerIdFor(revRegDefId, found.authorDid),
        revocDefType: payload.revocDefType,
        tag: payload.tag,
        // A did:indy registry names its credential definition by its did:indy id too (as the cred-def read does).
        credDefId:
          ref.namespace !== undefined && credDefRef ? indyCredDefId(this.namespace, credDefRef) : payload.credDefId,
        value: payload.value,
      },
      seqNo: found.seqNo,
      txnTime: found.txnTime,
    }
  }

  /**
   * The registry's status list at `timestamp` (seconds): the one its latest entry at or before that second made,
   * folded from the first entry (every index issued before it) through each entry's issued and revoked indices.
   * @throws InvalidInputError for a malformed id, NotFoundError when the registry is absent or had no entry yet
   */
  public async revocationStatusList(revRegDefId: string, timestamp: number): Promise<RevocationStatusListView> {
    const { found } = await this.findRevRegDef(revRegDefId)
    const { maxCredNum } = (found.payload as unknown as RevRegDefPayload).value
    const entries = await this.transactions.revRegEntriesBefore(found.objectId ?? '', new Date((timestamp + 1) * 1000))
    const latest = entries.at(-1)
    if (!latest) {
      throw new NotFoundError(`Revocation registry ${revRegDefId} has no status list at or before ${timestamp}`)
    }
    const revocationList = new Array<number>(maxCredNum).fill(0)
    for (const entry of entries) {
      const { issued = [], revoked = [] } = (entry.payload as unknown as RevRegEntryPayload).value
      for (const index of issued) revocationList[index] = 0
      for (const index of revoked) revocationList[index] = 1
    }
    return {
      revocationStatusList: {
        issuerId: this.issuerIdFor(revRegDefId, found.authorDid),
        revRegDefId,
        revocationList,
        currentAccumulator: (latest.payload as unknown as RevRegEntryPayload).value.accum,
        timestamp: Math.floor(Date.parse(latest.txnTime) / 1000),
      },
      seqNo: latest.seqNo,
      txnTime: latest.txnTime,
    }
  }

  /** @throws InvalidInputError for a malformed id, NotFoundError when absent (or in another namespace) */
  private async findRevRegDef(revRegDefId: string) {
    const ref: RevRegRef | undefined = parseRevRegId(revRegDefId)
    if (!ref) {
      throw new InvalidInputError('Invalid revocation registry definition id', [
        { field: 'revRegDefId', message: 'revRegDefId is malformed' },
      ])
    }
    if (ref.namespace !== undefined && ref.namespace !== this.namespace) {
      throw new NotFoundError(`No revocation registry ${revRegDefId} on this ledger (namespace ${this.namespace})`)
    }
    const found = await this.transactions.findByObjectId(legacyRevRegId(ref))
    if (!found || found.type !== 'REVOC_REG_DEF') {
      throw new NotFoundError(`No revocation registry ${revRegDefId} on this ledger`)
    }
    return { ref, found }
  }

  /** The DID resolution result of a ledger DID. @throws InvalidInputError malformed, NotFoundError unknown */
  public async resolveDid(didOrId: string): Promise<DidResolution> {
    const ref = this.didRef(didOrId)
    const nym = await this.transactions.findNym(ref.did)
    if (!nym) throw new NotFoundError(`DID ${didOrId} is not on this ledger`)
    const attrib = await this.transactions.findLatestAttrib(ref.did)
    const method = ref.method === 'sov' ? 'sov' : 'indy'
    const id = method === 'sov' ? `did:sov:${ref.did}` : `did:indy:${this.namespace}:${ref.did}`
    const didDocument = await buildDidDocument({
      id,
      method,
      verkey: (nym.payload as { verkey: string }).verkey,
      endpoint: attrib ? (attrib.payload as unknown as AttribPayload).raw.endpoint : undefined,
    })
    return {
      didDocument,
      didDocumentMetadata: {
        nymSeqNo: nym.seqNo,
        created: nym.txnTime,
        ...(attrib ? { attribSeqNo: attrib.seqNo, updated: attrib.txnTime } : {}),
      },
    }
  }

  /** A DID in any form this ledger answers for. @throws InvalidInputError, NotFoundError (another namespace) */
  private didRef(didOrId: string): DidRef {
    const ref = parseDid(didOrId)
    if (!ref) {
      throw new InvalidInputError('Invalid DID', [
        { field: 'did', message: 'did must be did:indy:<namespace>:<id>, did:sov:<id> or an Indy DID' },
      ])
    }
    if (ref.namespace !== undefined && ref.namespace !== this.namespace) {
      throw new NotFoundError(`DID ${didOrId} is not on this ledger (namespace ${this.namespace})`)
    }
    return ref
  }

  /** did:indy ids are answered with a did:indy issuer, legacy ids with the bare DID (as Credo's registry does). */
  private issuerIdFor(objectId: string, authorDid: string): string {
    return objectId.startsWith('did:indy:') ? `did:indy:${this.namespace}:${authorDid}` : authorDid
  }
}
