import { inject, injectable } from 'inversify'
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  Logger,
  NotFoundError,
  NotImplementedError,
} from '@idplane/common'
import {
  INDY_DID_PATTERN,
  LEDGER_TRANSACTION_TYPES,
  ledgerSigningBytes,
  nymPossessionBytes,
  type LedgerTransactionType,
} from '@idplane/common/agent-contract/ledger'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import { TOKENS, factoryClassKey } from '../../infra/tokens'
import { verifyChain, type ChainCheck } from './ledger-chain'
import { buildDidDocument } from './ledger-did-document'
import { didFromVerkey, Ed25519Signer, verifyEd25519, verkeyBytes } from './ledger-crypto'
import { ledgerConfig } from './ledger.config'
import {
  indyCredDefId,
  indySchemaId,
  legacyCredDefId,
  legacySchemaId,
  parseCredDefId,
  parseDid,
  parseSchemaId,
} from './ledger-ids'
import { LedgerMetrics, type AppendOutcome } from './ledger-metrics'
import {
  checkCredDefAgainstSchema,
  NYM_ROLES,
  readAttribPayload,
  readCredDefPayload,
  readSchemaPayload,
  type AttribPayload,
  type NymPayload,
  type SchemaPayload,
} from './ledger-payloads'
import { LedgerRepository, type NewTransaction, type StoredTransaction } from './ledger.repository'

/** HKDF info of the trustee seed derived from the secrets encryption key; never change it (the DID would). */
export const TRUSTEE_SEED_INFO = 'idplane/ledger/trustee-seed/v1'

export interface LedgerWrite {
  type: LedgerTransactionType
  authorDid: string
  payload: unknown
  signature: string
}

/** A transaction as answered; SCHEMA and CRED_DEF also carry their legacy and did:indy ids. */
export type TransactionView = Omit<StoredTransaction, 'requestedByOrgId'> & { id?: string; didIndyId?: string }

export interface LedgerInfo {
  namespace: string
  trusteeDid: string
  genesisHash: string
  head: { seqNo: number; hash: string }
}

export interface SchemaView {
  schemaId: string
  schema: { issuerId: string; name: string; version: string; attrNames: string[] }
  seqNo: number
  txnTime: string
}

export interface CredDefView {
  credentialDefinitionId: string
  credentialDefinition: { issuerId: string; schemaId: string; type: 'CL'; tag: string; value: unknown }
  seqNo: number
  txnTime: string
}

/**
 * The platform's Indy-like ledger (docs/decisions.md, "Ledger (issue 13)"): append-only NYM, ATTRIB, SCHEMA and
 * CRED_DEF transactions, each signed by its author, hash-chained. The trustee (the platform) authors NYMs.
 * Other modules call writeNym and append; agents reach it over HTTP (ledger.controller.ts).
 */
@injectable()
export class LedgerService {
  public readonly namespace: string
  private readonly trustee: Ed25519Signer
  private readonly logger: Logger

  public constructor(
    private readonly transactions: LedgerRepository,
    private readonly metrics: LedgerMetrics,
    @inject(TOKENS.Config) config: Config,
    @inject(factoryClassKey(SecretBox)) secrets: SecretBox,
    logger: Logger,
  ) {
    const settings = sectionOf(config, ledgerConfig)
    this.namespace = settings.namespace
    const seed = settings.trusteeSeed ? Buffer.from(settings.trusteeSeed, 'utf8') : secrets.deriveKey(TRUSTEE_SEED_INFO)
    this.trustee = new Ed25519Signer(seed)
    this.logger = logger.child({ component: 'ledger' })
  }

  public get trusteeDid(): string {
    return this.trustee.did
  }

  /**
   * Writes the genesis transaction (the trustee's own NYM) unless the ledger has one.
   * @throws InvalidStateError-like Error when the genesis trustee is not this platform's (its seed changed)
   */
  public async ensureGenesis(): Promise<StoredTransaction> {
    const genesis = await this.transactions.ensureGenesis(() => this.genesisTransaction())
    if (genesis.authorDid !== this.trustee.did) {
      this.logger.error('The ledger genesis names another trustee: LEDGER_TRUSTEE_SEED or the secrets key changed', {
        genesisTrustee: genesis.authorDid,
        configuredTrustee: this.trustee.did,
      })
    }
    return genesis
  }

  public async info(): Promise<LedgerInfo> {
    const genesis = await this.ensureGenesis()
    // The genesis is there, so the head is at least the genesis.
    const head = (await this.transactions.head()) ?? genesis
    return {
      namespace: this.namespace,
      trusteeDid: genesis.authorDid,
      genesisHash: genesis.hash,
      head: { seqNo: head.seqNo, hash: head.hash },
    }
  }

  /**
   * A NYM authored by the trustee (for other modules: the platform endorses the DID). Idempotent for the same
   * verkey. No proof of possession here: callers inside the API vouch for it; the agents' route checks one.
   * @throws InvalidInputError when did is not the DID of verkey; ConflictError when the DID has another verkey
   */
  public async writeNym(
    input: { did: string; verkey: string; role?: NymPayload['role']; alias?: string },
    requestedByOrgId?: string,
  ): Promise<{ transaction: TransactionView; isNew: boolean }> {
    const payload = this.checkNym(input)
    return this.measure('NYM', async () => {
      const { transaction, isNew } = await this.transactions.append(
        () => this.genesisTransaction(),
        async (reader) => {
          const existing = await reader.findNym(payload.dest)
          if (existing) {
            if ((existing.payload as { verkey?: unknown }).verkey === payload.verkey) return { existing }
            throw new ConflictError(`DID ${payload.dest} is already on the ledger with another verkey`)
          }
          return {
            append: {
              type: 'NYM',
              authorDid: this.trustee.did,
              objectId: payload.dest,
              payload: { ...payload },
              signature: this.trustee.sign(this.signingBytes('NYM', this.trustee.did, payload)),
              requestedByOrgId: requestedByOrgId ?? null,
            },
          }
        },
      )
      return { transaction: this.view(transaction), isNew }
    })
  }

  /**
   * An agent's NYM request: the signature proves the requester holds the new DID's key.
   * @throws InvalidInputError (field signature, did or verkey), ConflictError as writeNym
   */
  public async requestNym(
    body: { did: string; verkey: string; signature: string },
    orgId: string | null,
  ): Promise<{ transaction: TransactionView; isNew: boolean }> {
    this.checkNym(body)
    if (typeof body.signature !== 'string' || body.signature.length > 200) {
      throw new InvalidInputError('Invalid NYM request', [{ field: 'signature', message: 'signature must be base58' }])
    }
    const proof = nymPossessionBytes({ namespace: this.namespace, did: body.did, verkey: body.verkey })
    if (!verifyEd25519(proof, body.signature, body.verkey)) {
      throw new InvalidInputError('The NYM request signature does not verify', [
        { field: 'signature', message: 'signature must be the verkey owner signature of the NYM request' },
      ])
    }
    return this.writeNym({ did: body.did, verkey: body.verkey }, orgId ?? undefined)
  }

  /**
   * A signed ATTRIB, SCHEMA or CRED_DEF write (NYMs go through writeNym; revocation types are not implemented).
   * @throws ForbiddenError for NYM, NotImplementedError for revocation types, InvalidInputError for a bad body,
   *   unknown author or bad signature, ConflictError when what it creates exists
   */
  public async append(write: LedgerWrite): Promise<TransactionView> {
    const type = this.checkEnvelope(write)
    if (type === 'NYM')
      throw new ForbiddenError('NYM transactions are written by the trustee: use POST /v1/ledger/nyms')
    if (type === 'REVOC_REG_DEF' || type === 'REVOC_REG_ENTRY') {
      throw new NotImplementedError(`${type} transactions are not implemented yet (revocation issue)`)
    }
    const payload =
      type === 'SCHEMA'
        ? readSchemaPayload(write.payload)
        : type === 'CRED_DEF'
          ? readCredDefPayload(write.payload)
          : readAttribPayload(write.payload)
    if (type === 'ATTRIB' && (payload as AttribPayload).dest !== write.authorDid) {
      throw new InvalidInputError('Invalid ledger transaction', [
        {
          field: 'payload.dest',
          message: 'an ATTRIB is written by the DID it is about: payload.dest must be authorDid',
        },
      ])
    }
    return this.measure(type, async () => {
      const { transaction } = await this.transactions.append(
        () => this.genesisTransaction(),
        async (reader): Promise<{ append: NewTransaction }> => {
          const nym = await reader.findNym(write.authorDid)
          if (!nym) {
            throw new InvalidInputError('Unknown author', [
              { field: 'authorDid', message: 'authorDid has no NYM on this ledger' },
            ])
          }
          const verkey = (nym.payload as { verkey: string }).verkey
          if (!verifyEd25519(this.signingBytes(type, write.authorDid, payload), write.signature, verkey)) {
            throw new InvalidInputError('The transaction signature does not verify', [
              { field: 'signature', message: 'signature must be the author verkey signature of the transaction' },
            ])
          }
          let objectId: string | null = null
          if (type === 'SCHEMA') objectId = legacySchemaId({ did: write.authorDid, ...(payload as SchemaPayload) })
          if (type === 'CRED_DEF') {
            const credDef = payload as ReturnType<typeof readCredDefPayload>
            const schemaRef = parseSchemaId(credDef.schemaId)
            const schema = schemaRef && !schemaRef.namespace ? await reader.findByObjectId(credDef.schemaId) : undefined
            if (!schema || schema.type !== 'SCHEMA') {
              throw new InvalidInputError('Unknown schema', [
                {
                  field: 'payload.schemaId',
                  message: 'payload.schemaId must be the legacy id of a schema on this ledger',
                },
              ])
            }
            checkCredDefAgainstSchema(credDef, (schema.payload as unknown as SchemaPayload).attrNames)
            objectId = legacyCredDefId({ did: write.authorDid, schemaSeqNo: schema.seqNo, tag: credDef.tag })
          }
          if (objectId !== null && (await reader.findByObjectId(objectId))) {
            throw new ConflictError(`${objectId} is already on the ledger`)
          }
          return {
            append: {
              type,
              authorDid: write.authorDid,
              objectId,
              payload: payload as unknown as Record<string, unknown>,
              signature: write.signature,
            },
          }
        },
      )
      return this.view(transaction)
    })
  }

  /** @throws NotFoundError when there is no such transaction */
  public async transaction(seqNo: number): Promise<TransactionView> {
    const found = await this.transactions.findBySeqNo(seqNo)
    if (!found) throw new NotFoundError(`No ledger transaction ${seqNo}`)
    return this.view(found)
  }

  public async transactionsFrom(from: number, limit: number): Promise<TransactionView[]> {
    await this.ensureGenesis()
    return (await this.transactions.list(from, limit)).map((txn) => this.view(txn))
  }

  public async verify(range: { from: number; to?: number }): Promise<ChainCheck> {
    return verifyChain(this.transactions, this.namespace, range)
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
    const payload = found.payload as unknown as ReturnType<typeof readCredDefPayload>
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

  /** The DID resolution result of a ledger DID. @throws InvalidInputError malformed, NotFoundError unknown */
  public async resolveDid(
    didOrId: string,
  ): Promise<{ didDocument: Record<string, unknown>; didDocumentMetadata: Record<string, unknown> }> {
    const ref = parseDid(didOrId)
    if (!ref) {
      throw new InvalidInputError('Invalid DID', [
        { field: 'did', message: 'did must be did:indy:<namespace>:<id>, did:sov:<id> or an Indy DID' },
      ])
    }
    if (ref.namespace !== undefined && ref.namespace !== this.namespace) {
      throw new NotFoundError(`DID ${didOrId} is not on this ledger (namespace ${this.namespace})`)
    }
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

  /** A transaction as answered, with the ids of what it created. */
  public view(txn: StoredTransaction): TransactionView {
    const { requestedByOrgId: _omitted, ...fields } = txn
    const schemaRef = txn.type === 'SCHEMA' && txn.objectId ? parseSchemaId(txn.objectId) : undefined
    if (schemaRef && txn.objectId) {
      return { ...fields, id: txn.objectId, didIndyId: indySchemaId(this.namespace, schemaRef) }
    }
    const credDefRef = txn.type === 'CRED_DEF' && txn.objectId ? parseCredDefId(txn.objectId) : undefined
    if (credDefRef && txn.objectId) {
      return { ...fields, id: txn.objectId, didIndyId: indyCredDefId(this.namespace, credDefRef) }
    }
    return fields
  }

  /** did:indy ids are answered with a did:indy issuer, legacy ids with the bare DID (as Credo's registry does). */
  private issuerIdFor(objectId: string, authorDid: string): string {
    return objectId.startsWith('did:indy:') ? `did:indy:${this.namespace}:${authorDid}` : authorDid
  }

  private signingBytes(type: LedgerTransactionType, authorDid: string, payload: unknown): Buffer {
    return ledgerSigningBytes({ namespace: this.namespace, type, authorDid, payload })
  }

  private genesisTransaction(): NewTransaction {
    const payload = { dest: this.trustee.did, verkey: this.trustee.verkey, role: 'TRUSTEE' }
    return {
      type: 'NYM',
      authorDid: this.trustee.did,
      objectId: this.trustee.did,
      payload,
      signature: this.trustee.sign(this.signingBytes('NYM', this.trustee.did, payload)),
    }
  }

  private checkNym(input: { did: unknown; verkey: unknown; role?: unknown; alias?: unknown }): NymPayload {
    const errors: { field: string; message: string }[] = []
    const verkey = typeof input.verkey === 'string' ? verkeyBytes(input.verkey) : undefined
    if (!verkey) errors.push({ field: 'verkey', message: 'verkey must be a base58 Ed25519 public key (32 bytes)' })
    if (typeof input.did !== 'string' || !INDY_DID_PATTERN.test(input.did)) {
      errors.push({ field: 'did', message: 'did must be an unqualified Indy DID (base58, 21 or 22 characters)' })
    } else if (verkey && didFromVerkey(verkey) !== input.did) {
      errors.push({ field: 'did', message: 'did must be base58 of the first 16 bytes of verkey' })
    }
    if (input.role !== undefined && !NYM_ROLES.includes(input.role as (typeof NYM_ROLES)[number])) {
      errors.push({ field: 'role', message: `role must be one of ${NYM_ROLES.join(', ')}` })
    }
    if (
      input.alias !== undefined &&
      (typeof input.alias !== 'string' || input.alias.length > 256 || input.alias.includes('\u0000'))
    ) {
      errors.push({ field: 'alias', message: 'alias must be a string of at most 256 characters' })
    }
    if (errors.length > 0) throw new InvalidInputError('Invalid NYM', errors)
    return {
      dest: input.did as string,
      verkey: input.verkey as string,
      ...(input.role !== undefined ? { role: input.role as NymPayload['role'] } : {}),
      ...(input.alias !== undefined ? { alias: input.alias as string } : {}),
    }
  }

  private checkEnvelope(write: LedgerWrite): LedgerTransactionType {
    const errors: { field: string; message: string }[] = []
    if (!LEDGER_TRANSACTION_TYPES.includes(write.type)) {
      errors.push({ field: 'type', message: `type must be one of ${LEDGER_TRANSACTION_TYPES.join(', ')}` })
    }
    if (typeof write.authorDid !== 'string' || !INDY_DID_PATTERN.test(write.authorDid)) {
      errors.push({ field: 'authorDid', message: 'authorDid must be an unqualified Indy DID' })
    }
    if (typeof write.signature !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{1,120}$/.test(write.signature)) {
      errors.push({ field: 'signature', message: 'signature must be a base58 Ed25519 signature' })
    }
    if (typeof write.payload !== 'object' || write.payload === null || Array.isArray(write.payload)) {
      errors.push({ field: 'payload', message: 'payload must be an object' })
    }
    if (errors.length > 0) throw new InvalidInputError('Invalid ledger transaction', errors)
    return write.type
  }

  private async measure<T>(type: LedgerTransactionType, work: () => Promise<T>): Promise<T> {
    const stop = this.metrics.appendDuration.startTimer({ type })
    let outcome: AppendOutcome = 'error'
    try {
      const result = await work()
      outcome =
        typeof result === 'object' && result !== null && 'isNew' in result && result.isNew === false
          ? 'existing'
          : 'appended'
      return result
    } catch (error) {
      outcome =
        error instanceof ConflictError
          ? 'conflict'
          : error instanceof InvalidInputError || error instanceof ForbiddenError
            ? 'rejected'
            : 'error'
      throw error
    } finally {
      stop()
      this.metrics.appends.inc({ type, outcome })
    }
  }
}
