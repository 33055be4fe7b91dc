/**
 * The platform ledger as a wallet's DIDs need it: the namespace of its did:indy ids (a wallet's `indy` DID must be
 * on it). The ledger module, which comes after this one in API_MODULES, binds it: cloud-wallet asks, the ledger
 * answers, so cloud-wallet imports nothing from the ledger's folder.
 */
export abstract class WalletLedger {
  /** LEDGER_NAMESPACE, for example `idplane`. */
  public abstract readonly namespace: string
}
