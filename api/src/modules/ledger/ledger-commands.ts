import { existsSync } from 'node:fs'
import { ConfigError, silentLogger, type Logger } from '@idplane/common'
import { loadConfig, type Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import { Database, type DatabaseTarget } from '../../infra/db/database'
import { persistedEntities } from '../../infra/db/persisted-entities'
import { configSectionsOf } from '../../infra/module-registry'
import { API_MODULES } from '../index'
import type { AnchorCheck, ChainPosition } from './ledger-anchor'
import type { LedgerCheck } from './ledger-check'
import { LedgerHead } from './ledger-head.service'
import { LedgerReferencesRepository } from './ledger-references.repository'
import { LedgerTrustee } from './ledger-trustee'
import { ledgerConfig } from './ledger.config'
import { LedgerRepository } from './ledger.repository'

/**
 * `npm run ledger:verify [from] [to]` and `npm run ledger:anchor [--replace]`: the ledger checks run straight against
 * the database the API's settings name (DATABASE_URL, else the embedded PGlite under DATA_DIR, which only one
 * process may open: stop the API first), with the API's trustee key (LEDGER_TRUSTEE_SEED, else the secrets key:
 * SECRETS_ENCRYPTION_KEY or the key file under DATA_DIR). Same code as the routes, so a problem is named the same way.
 */

/** The chain check of `GET /v1/ledger/verify`, with the anchor and the records when the range reaches the head. */
export async function runLedgerVerify(
  env: Record<string, string | undefined>,
  args: readonly string[],
  target?: DatabaseTarget,
): Promise<LedgerCheck> {
  const from = args[0] ? Number(args[0]) : 1
  const to = args[1] ? Number(args[1]) : undefined
  if (!Number.isSafeInteger(from) || from < 1 || (to !== undefined && (!Number.isSafeInteger(to) || to < from))) {
    throw new Error('Usage: ledger:verify [from] [to] (whole numbers, 1 <= from <= to)')
  }
  return withLedgerHead(env, target, silentLogger, (head) => head.verify({ from, to }))
}

/**
 * Anchors the current head after an operator has looked into why the anchor was lost or no longer matches (the
 * chain must verify); `--replace` is needed to replace an anchor that exists.
 */
export async function runLedgerAnchor(
  env: Record<string, string | undefined>,
  args: readonly string[],
  target?: DatabaseTarget,
  logger: Logger = silentLogger,
): Promise<{ previous: AnchorCheck; anchored: ChainPosition }> {
  const unknown = args.filter((arg) => arg !== '--replace')
  if (unknown.length > 0) throw new Error('Usage: ledger:anchor [--replace]')
  return withLedgerHead(env, target, logger, (head) => head.anchorCurrentHead({ replace: args.includes('--replace') }))
}

async function withLedgerHead<T>(
  env: Record<string, string | undefined>,
  target: DatabaseTarget | undefined,
  logger: Logger,
  work: (head: LedgerHead) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env, configSectionsOf(API_MODULES))
  const secrets = openSecretsWithoutCreating(config)
  const database = await Database.open(target ?? config.database, silentLogger, persistedEntities(API_MODULES))
  try {
    const em = database.orm.em
    const head = new LedgerHead(
      new LedgerRepository(em),
      new LedgerReferencesRepository(em),
      new LedgerTrustee(config, secrets),
      logger,
    )
    return await work(head)
  } finally {
    await database.close()
  }
}

/**
 * The secrets key the API uses, never a new one: SecretBox.open would generate a key where none is kept, and the
 * anchor would then be checked (or signed) with a trustee key the API does not have.
 */
function openSecretsWithoutCreating(config: Config): SecretBox {
  const hasSeed = sectionOf(config, ledgerConfig).trusteeSeed !== undefined
  if (hasSeed || config.secretsKey !== undefined || existsSync(config.secretsKeyFile)) {
    return SecretBox.open(config, silentLogger)
  }
  throw new ConfigError(
    `The ledger's trustee key is needed: set LEDGER_TRUSTEE_SEED or SECRETS_ENCRYPTION_KEY as the API has them, or DATA_DIR to the API's (no ${config.secretsKeyFile})`,
  )
}
