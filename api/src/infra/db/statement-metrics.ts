import { Counter, type Registry } from 'prom-client'
import { reuse } from '../queue/queue-metrics'

const NAME = 'idplane_api_database_statements_total'

/** First words counted under their own name; any other statement counts as `other`. */
const KINDS = new Set(['select', 'insert', 'update', 'delete', 'with'])

/**
 * `idplane_api_database_statements_total{kind}`: the statements the API sends through MikroORM, and those it prepares by
 * name on MikroORM's pool (BaseRepository.runPrepared, which calls the same hook), by their first word
 * (`with` for statements of several steps, such as the outbox claims). Transaction control (begin, commit,
 * savepoints) takes another path in MikroORM and is not counted. Statements per request or per exchange are what
 * the database's load grows with (docs/benchmarks.md, "Deliveries with their targets").
 * @returns the function that counts one statement (the ORM's `onQuery` hook calls it)
 */
export function statementCounter(registry: Registry): (sql: string) => void {
  const statements = reuse(
    registry,
    NAME,
    (registers) =>
      new Counter({
        name: NAME,
        help: 'SQL statements the API sent through its ORM or its pool, by first word (select, insert, update, delete, with, other)',
        labelNames: ['kind'],
        registers,
      }),
  )
  return (sql) => {
    const word = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toLowerCase() ?? ''
    statements.inc({ kind: KINDS.has(word) ? word : 'other' })
  }
}
