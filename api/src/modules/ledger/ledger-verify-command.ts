import { silentLogger } from '@idplane/common'
import { loadConfig } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { Database, type DatabaseTarget } from '../../infra/db/database'
import { persistedEntities } from '../../infra/db/persisted-entities'
import { configSectionsOf } from '../../infra/module-registry'
import { API_MODULES } from '../index'
import { verifyChain, type ChainCheck } from './ledger-chain'
import { ledgerConfig } from './ledger.config'
import { LedgerRepository } from './ledger.repository'

/**
 * `npm run ledger:verify [from] [to]`: the chain check of `GET /v1/ledger/verify`, run straight against the database
 * the API's settings name (DATABASE_URL, else the embedded PGlite under DATA_DIR, which only one process may open:
 * stop the API first). Same code as the route, so a tampered row is named the same way.
 */
export async function runLedgerVerify(
  env: Record<string, string | undefined>,
  args: readonly string[],
  target?: DatabaseTarget,
): Promise<ChainCheck> {
  const config = loadConfig(env, configSectionsOf(API_MODULES))
  const from = args[0] ? Number(args[0]) : 1
  const to = args[1] ? Number(args[1]) : undefined
  if (!Number.isSafeInteger(from) || from < 1 || (to !== undefined && (!Number.isSafeInteger(to) || to < from))) {
    throw new Error('Usage: ledger:verify [from] [to] (whole numbers, 1 <= from <= to)')
  }
  const database = await Database.open(target ?? config.database, silentLogger, persistedEntities(API_MODULES))
  try {
    const repository = new LedgerRepository(database.orm.em)
    return await verifyChain(repository, sectionOf(config, ledgerConfig).namespace, { from, to })
  } finally {
    await database.close()
  }
}
