import type { AgentContext, Kms } from '@credo-ts/core'
import type { NodeKeyManagementStorage } from '@credo-ts/node'
import { BoundedMap } from '@idplane/common'

import type { SqlClient } from '../sql/sql-client'
import { WalletKeyCipher } from './wallet-key-cipher'

const SALT_SETTING = 'kms_salt'
const CHECK_SETTING = 'kms_check'
const CHECK_PLAINTEXT = 'idplane-wallet-key-check'

/** Thrown at start when AGENT_WALLET_KEY is not the key this database was created with. */
export class WrongWalletKeyError extends Error {}

const MAX_OPENED_KEYS = 1000

/**
 * Private JWKs per agent context in `kms_keys`, each sealed under the wallet key. Node's KMS and our DIDComm
 * v1 box code both read keys through this one store.
 */
export class EncryptedKeyStorage implements NodeKeyManagementStorage {
  /**
   * Opened keys, least recently used dropped first. Every DIDComm message needs one or two keys; reading and
   * opening them each time was a tenth of the agent's queries. Decision: opened keys stay in this process's memory
   * (they are there during every operation anyway); this process is the only writer of its keys.
   */
  private readonly opened = new BoundedMap<string, Kms.KmsJwkPrivate>(MAX_OPENED_KEYS)

  private constructor(
    private readonly sql: SqlClient,
    private readonly cipher: WalletKeyCipher,
  ) {}

  /**
   * Derives the cipher from the wallet key and the database's salt (created on first start).
   * @throws {WrongWalletKeyError} when the database was sealed under another wallet key
   */
  public static async open(sql: SqlClient, walletKey: string): Promise<EncryptedKeyStorage> {
    await sql.query('CREATE TABLE IF NOT EXISTS wallet_settings (name text PRIMARY KEY, value text NOT NULL)')
    const salt = await readOrCreate(sql, SALT_SETTING, () => WalletKeyCipher.newSalt().toString('base64'))
    const cipher = WalletKeyCipher.derive(walletKey, Buffer.from(salt, 'base64'))
    const check = await readOrCreate(sql, CHECK_SETTING, () => cipher.seal(Buffer.from(CHECK_PLAINTEXT), CHECK_SETTING))
    try {
      cipher.open(check, CHECK_SETTING)
    } catch (error) {
      throw new WrongWalletKeyError('AGENT_WALLET_KEY does not open this wallet', { cause: error })
    }
    return new EncryptedKeyStorage(sql, cipher)
  }

  public async get(agentContext: AgentContext, keyId: string): Promise<Kms.KmsJwkPrivate | null> {
    const contextId = agentContext.contextCorrelationId
    const binding = rowBinding(contextId, keyId)
    const cached = this.opened.get(binding)
    if (cached) return { ...cached }
    const { rows } = await this.sql.query<{ sealed: string }>(
      'SELECT sealed FROM kms_keys WHERE context_id = $1 AND key_id = $2',
      [contextId, keyId],
    )
    if (rows.length === 0) return null
    const jwk = JSON.parse(this.cipher.open(rows[0].sealed, binding).toString('utf8')) as Kms.KmsJwkPrivate
    this.opened.set(binding, jwk)
    return { ...jwk }
  }

  public async has(agentContext: AgentContext, keyId: string): Promise<boolean> {
    const { rows } = await this.sql.query('SELECT 1 FROM kms_keys WHERE context_id = $1 AND key_id = $2', [
      agentContext.contextCorrelationId,
      keyId,
    ])
    return rows.length > 0
  }

  public async set(agentContext: AgentContext, keyId: string, jwk: Kms.KmsJwkPrivate): Promise<void> {
    const contextId = agentContext.contextCorrelationId
    const sealed = this.cipher.seal(Buffer.from(JSON.stringify(jwk), 'utf8'), rowBinding(contextId, keyId))
    await this.sql.query(
      `INSERT INTO kms_keys (context_id, key_id, sealed) VALUES ($1, $2, $3)
       ON CONFLICT (context_id, key_id) DO UPDATE SET sealed = EXCLUDED.sealed`,
      [contextId, keyId, sealed],
    )
    this.opened.delete(rowBinding(contextId, keyId))
  }

  public async delete(agentContext: AgentContext, keyId: string): Promise<boolean> {
    this.opened.delete(rowBinding(agentContext.contextCorrelationId, keyId))
    const result = await this.sql.query('DELETE FROM kms_keys WHERE context_id = $1 AND key_id = $2', [
      agentContext.contextCorrelationId,
      keyId,
    ])
    return result.rowCount > 0
  }

  /** Drops every key of one agent context (a deleted tenant). */
  public async deleteContext(contextId: string): Promise<void> {
    for (const binding of this.opened.keys()) if (binding.startsWith(`${contextId}\u0000`)) this.opened.delete(binding)
    await this.sql.query('DELETE FROM kms_keys WHERE context_id = $1', [contextId])
  }
}

function rowBinding(contextId: string, keyId: string): string {
  return `${contextId}\u0000${keyId}`
}

async function readOrCreate(sql: SqlClient, name: string, create: () => string): Promise<string> {
  await sql.query('INSERT INTO wallet_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    create(),
  ])
  const { rows } = await sql.query<{ value: string }>('SELECT value FROM wallet_settings WHERE name = $1', [name])
  return rows[0].value
}
