/**
 * What may be logged of a database error: its class, SQLSTATE code and the names of the constraint, table and
 * column. Never the message: MikroORM (through knex) prefixes it with the SQL with every value filled in, and
 * PostgreSQL's detail quotes the row ("Failing row contains ...", "Key (x)=(...)"), which may hold sealed keys,
 * token hashes or event bodies (issue 8). Undefined for an error that is not a database error.
 */
export function describeDatabaseError(error: Error): Record<string, string> | undefined {
  const fields = error as Error & Record<string, unknown>
  const code = typeof fields.code === 'string' ? fields.code : undefined
  const isDatabaseError =
    typeof fields.sqlState === 'string' ||
    (code !== undefined && /^[0-9A-Z]{5}$/.test(code) && ('severity' in fields || 'routine' in fields))
  if (!isDatabaseError) return undefined
  const described: Record<string, string> = { name: error.name }
  for (const key of ['code', 'constraint', 'table', 'column'] as const) {
    const value = fields[key]
    if (typeof value === 'string' && value !== '') described[key] = value
  }
  return described
}
