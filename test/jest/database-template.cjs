// Jest's globalSetup and globalTeardown (jest.config.js): with DATABASE_URL set, every test file's fresh PostgreSQL
// database is a copy of one migrated template (test/helpers/database.ts) instead of an empty database migrated anew:
// 32 migrations took about 2 s per database on a loaded CI machine, and a run makes more than a hundred. This only
// names the template for the run (the workers inherit the variable); the first worker that needs it makes it, under an
// advisory lock. The teardown drops it, so a run leaves no database behind. migrations.int.test.ts still migrates an
// empty database (freshDatabase's `migrated: false`).
//
// Only the process that named the template drops it. A jest started by a test (test-tools.int.test.ts runs one)
// inherits the variable: its setup keeps the name, and its teardown used to drop the outer run's template while that
// run's workers were copying it ("template database ... does not exist" in whichever file made its database then).
const { randomBytes } = require('node:crypto')

const VARIABLE = 'IDPLANE_TEST_DB_TEMPLATE'
/** The pid of the jest process that named the template: the one whose teardown drops it. */
const OWNER = 'IDPLANE_TEST_DB_TEMPLATE_OWNER'

async function withServer(work) {
  const { Client } = require('pg')
  const client = new Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

async function setup() {
  if (!process.env.DATABASE_URL || process.env[VARIABLE]) return
  process.env[VARIABLE] = `idplane_tpl_${randomBytes(6).toString('hex')}`
  process.env[OWNER] = String(process.pid)
}

async function teardown() {
  const name = process.env[VARIABLE]
  if (!process.env.DATABASE_URL || !name || process.env[OWNER] !== String(process.pid)) return
  // The template and a half-made one a killed worker left (made under the `_making` name, then renamed).
  await withServer(async (client) => {
    for (const database of [name, `${name}_making`])
      await client.query(`drop database if exists "${database}" with (force)`)
  })
  delete process.env[VARIABLE]
  delete process.env[OWNER]
}

module.exports = { setup, teardown, VARIABLE }
