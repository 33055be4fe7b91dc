import {
  indyCredDefId,
  indyRevRegId,
  indySchemaId,
  parseCredDefId,
  parseRevRegId,
  parseSchemaId,
} from '@idplane/common/ledger-ids'
import type {
  RevocationRegistryDefinitionAnswer,
  RevocationStatusListAnswer,
} from '@idplane/common/agent-contract/ledger'
import type { StoredTransaction } from './ledger.repository'

/**
 * A transaction as answered; SCHEMA and CRED_DEF also carry their legacy and did:indy ids. `lastSeqNo` (the
 * author's binding, which signature and hash cover) is absent on transactions written before bindings existed.
 */
export type TransactionView = Omit<StoredTransaction, 'requestedByOrgId' | 'lastSeqNo'> & {
  lastSeqNo?: number
  id?: string
  didIndyId?: string
}

export interface LedgerInfo {
  namespace: string
  trusteeDid: string
  genesisHash: string
  head: { seqNo: number; hash: string }
}

/** A DID's state: what a write by it must be bound to (common/agent-contract/ledger.ts, LedgerBinding). */
export interface DidState {
  did: string
  lastSeqNo: number
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

/** anoncreds' RevocationRegistryDefinition, as the ledger answers it (shared with the agent's ledger client). */
export type RevRegDefView = RevocationRegistryDefinitionAnswer

/** anoncreds' RevocationStatusList at a moment, as the ledger answers it (shared with the agent's ledger client). */
export type RevocationStatusListView = RevocationStatusListAnswer

/** A transaction as answered, with the ids of what it created. */
export function toTransactionView(txn: StoredTransaction, namespace: string): TransactionView {
  const { requestedByOrgId: _omitted, lastSeqNo, ...rest } = txn
  const fields: TransactionView = lastSeqNo === null ? rest : { ...rest, lastSeqNo }
  const schemaRef = txn.type === 'SCHEMA' && txn.objectId ? parseSchemaId(txn.objectId) : undefined
  if (schemaRef && txn.objectId) {
    return { ...fields, id: txn.objectId, didIndyId: indySchemaId(namespace, schemaRef) }
  }
  const credDefRef = txn.type === 'CRED_DEF' && txn.objectId ? parseCredDefId(txn.objectId) : undefined
  if (credDefRef && txn.objectId) {
    return { ...fields, id: txn.objectId, didIndyId: indyCredDefId(namespace, credDefRef) }
  }
  const revRegRef = txn.type === 'REVOC_REG_DEF' && txn.objectId ? parseRevRegId(txn.objectId) : undefined
  if (revRegRef && txn.objectId) {
    return { ...fields, id: txn.objectId, didIndyId: indyRevRegId(namespace, revRegRef) }
  }
  return fields
}
