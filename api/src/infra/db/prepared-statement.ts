import { createHash } from 'node:crypto'

/**
 * A statement that PostgreSQL parses and plans once per connection: sent by name with its values apart
 * (BaseRepository.runPrepared), where MikroORM writes every value into the statement's text, so the server plans
 * each statement anew. For the statements a process repeats most outside any transaction, whose planning cost the
 * server more than running them: the outbox relays' claims and marks, whose planning took 1.4-1.8 ms a claim
 * (docs/benchmarks.md, "The relays' statements prepared").
 *
 * The text is written with `?` placeholders, as the rest of the repositories write SQL, and numbered here; it must
 * hold no other `?` (PostgreSQL's JSON operators), and it must be the same for every call: a list of values goes in
 * as an array parameter (`unnest(?::uuid[])`), not as a placeholder per value.
 */
export class PreparedStatement {
  /** Names taken, with their texts: one name is one statement on every connection. */
  private static readonly texts = new Map<string, string>()

  /** The text as sent: `$1`, `$2`, ... in place of the `?` placeholders. */
  public readonly text: string
  public readonly parameterCount: number

  public constructor(
    public readonly name: string,
    sql: string,
  ) {
    let count = 0
    this.text = sql.replace(/\?/g, () => `$${++count}`)
    this.parameterCount = count
    const taken = PreparedStatement.texts.get(name)
    if (taken !== undefined && taken !== this.text) throw new Error(`Prepared statement ${name} has two texts`)
    PreparedStatement.texts.set(name, this.text)
  }

  /**
   * A statement whose text is made at run time (a repository's statements over its entity's columns), named from a
   * hash of that text: the same name on every connection and in every process, within PostgreSQL's 63 characters.
   */
  public static fromText(prefix: string, sql: string): PreparedStatement {
    return new PreparedStatement(`${prefix}_${createHash('sha256').update(sql).digest('hex').slice(0, 20)}`, sql)
  }
}

/** What a prepared statement answered: its rows, and how many rows it wrote or returned. */
export interface PreparedResult<R> {
  rows: R[]
  rowCount: number
}
