/** The machine's PostgreSQL (DESIGN.md), where test agents keep their records in schemas of their own. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * A PostgreSQL schema name for a test agent's records: `agent_t<pid>_<part>`, the pid being this test process's.
 * `make test` drops such schemas once their process has ended (scripts/drop-test-agent-schemas.cjs), as it removes
 * the process's agent directories: a test may stop an agent and start it again on its schema, so the helpers cannot
 * drop it at stop, and jest gives a test process no hook at its exit. Before, every CI run left about 40 schemas in
 * the test database.
 */
export function testAgentSchema(part: string): string {
  return `agent_t${process.pid}_${part}`
}
