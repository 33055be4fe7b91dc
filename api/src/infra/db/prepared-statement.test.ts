import { PreparedStatement } from './prepared-statement'

describe('PreparedStatement', () => {
  it('numbers the placeholders in order and counts them', () => {
    const statement = new PreparedStatement('test_numbered', 'update t set a = ?, b = ?::uuid where c = any(?::int[])')
    expect(statement.text).toBe('update t set a = $1, b = $2::uuid where c = any($3::int[])')
    expect(statement.parameterCount).toBe(3)
  })

  it('refuses a second text under a name already taken, and takes the same text again', () => {
    new PreparedStatement('test_taken', 'select ?')
    expect(() => new PreparedStatement('test_taken', 'select ?')).not.toThrow()
    expect(() => new PreparedStatement('test_taken', 'select ? + 1')).toThrow('test_taken has two texts')
  })

  it('names a statement made at run time from its text: one name per text, the same in every process', () => {
    const first = PreparedStatement.fromText('test_made', 'select * from t where a = ?')
    expect(first.name).toMatch(/^test_made_[0-9a-f]{20}$/)
    expect(PreparedStatement.fromText('test_made', 'select * from t where a = ?').name).toBe(first.name)
    expect(PreparedStatement.fromText('test_made', 'select * from t where b = ?').name).not.toBe(first.name)
  })
})
