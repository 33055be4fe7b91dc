/**
 * The platform ledger as credential definitions and proof requests need it (issue 22 items 1 and 3): the namespace
 * of its did:indy ids and the sequence numbers of its schemas, which make a definition's id before its keys exist.
 * The ledger module, which comes after this one in API_MODULES, binds it (as it binds the cloud wallet's
 * WalletLedger), so these modules import nothing from the ledger's folder.
 */
export abstract class DefinitionsLedger {
  /** LEDGER_NAMESPACE, for example `idplane`. */
  public abstract readonly namespace: string

  /** The sequence number of a schema (either id form) on this ledger; undefined when it holds no such schema. */
  public abstract schemaSeqNo(schemaId: string): Promise<number | undefined>
}
