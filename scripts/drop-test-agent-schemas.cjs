// `make test` (scripts/test-all.sh), before and after jest: drops the PostgreSQL schemas of test agents
// (test/helpers/test-schema.ts: `agent_t<pid>_...`) whose test process has ended; a concurrent run's stay. Without
// DATABASE_URL, or with its database unreachable, there is nothing to do. Never fails the run: a schema left is
// dropped by the next.
const { Client } = require('pg')

const TEST_SCHEMA = /^agent_t(\d+)_[a-z0-9_]+$/

function isRunning(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

async function main() {
  const url = process.env.DATABASE_URL
  if (!url) return
  const client = new Client({ connectionString: url })
  try {
    await client.connect()
  } catch {
    return
  }
  try {
    const { rows } = await client.query(`select nspname from pg_namespace where nspname like 'agent\\_t%'`)
    for (const { nspname } of rows) {
      const match = TEST_SCHEMA.exec(nspname)
      if (!match || isRunning(Number(match[1]))) continue
      await client.query(`drop schema if exists "${nspname}" cascade`)
    }
  } finally {
    await client.end()
  }
}

main().catch((error) => console.error(`drop-test-agent-schemas: ${error.message}`))
