import { inject, injectable } from 'inversify'
import { ledgerSigningBytes, type LedgerTransactionType } from '@idplane/common/agent-contract/ledger'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import { TOKENS, factoryClassKey } from '../../infra/tokens'
import { Ed25519Signer } from './ledger-crypto'
import { ledgerConfig } from './ledger.config'

/** HKDF info of the trustee seed derived from the secrets encryption key; never change it (the DID would). */
export const TRUSTEE_SEED_INFO = 'idplane/ledger/trustee-seed/v1'

/**
 * The platform's own identity on its ledger: the trustee key (from LEDGER_TRUSTEE_SEED, else derived from the
 * secrets encryption key: either way outside the database) and the namespace. The trustee authors NYMs and signs
 * the anchor of the head.
 */
@injectable()
export class LedgerTrustee {
  public readonly namespace: string
  private readonly signer: Ed25519Signer

  public constructor(@inject(TOKENS.Config) config: Config, @inject(factoryClassKey(SecretBox)) secrets: SecretBox) {
    const settings = sectionOf(config, ledgerConfig)
    this.namespace = settings.namespace
    const seed = settings.trusteeSeed ? Buffer.from(settings.trusteeSeed, 'utf8') : secrets.deriveKey(TRUSTEE_SEED_INFO)
    this.signer = new Ed25519Signer(seed)
  }

  public get did(): string {
    return this.signer.did
  }

  public get verkey(): string {
    return this.signer.verkey
  }

  public sign(message: Buffer): string {
    return this.signer.sign(message)
  }

  /** The bytes an author signs in this ledger's namespace (common/agent-contract/ledger.ts). */
  public signingBytes(type: LedgerTransactionType, authorDid: string, payload: unknown, lastSeqNo: number): Buffer {
    return ledgerSigningBytes({ namespace: this.namespace, type, authorDid, payload, lastSeqNo })
  }
}
