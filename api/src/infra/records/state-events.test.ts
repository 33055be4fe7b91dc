import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SRC_DIR = path.resolve(__dirname, '..', '..')
/** The one place `<kind>.state-changed` events leave (issue 24: ExchangeRecords). */
const PUBLISHER = path.join(__dirname, 'exchange-records.ts')

/** Every TypeScript source file under api/src, tests excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')

/**
 * Why a source would publish a state-changed event itself, or null: it spells the type (a string or template
 * literal ending in `.state-changed`), or it builds platform events and names a state-changed type (the kind
 * constants made by stateChangedType, or stateChangedType itself). A kind may still declare its constant with
 * stateChangedType: for its webhooks and tests, not to publish.
 */
export function publishesStateChanged(source: string): string | null {
  const code = withoutComments(source)
  if (/['"`][^'"`\n]*\.state-changed['"`]/.test(code)) return 'spells a <kind>.state-changed type'
  const buildsEvents = /\bplatformEvent\s*\(|\btype\s*:/.test(code) && /\.publish\s*\(/.test(code)
  if (buildsEvents && /\b[A-Z0-9_]*STATE_CHANGED\b|\bstateChangedType\s*\(/.test(code)) {
    return 'publishes platform events and names a state-changed type'
  }
  return null
}

describe('<kind>.state-changed events', () => {
  const files = sourceFiles(SRC_DIR)

  it('has files to check, the publisher among them', () => {
    expect(files.length).toBeGreaterThan(100)
    expect(files).toContain(PUBLISHER)
  })

  it('are published only by infra/records/exchange-records.ts (docs/architecture.md, "Exchange records")', () => {
    const offending = files
      .filter((file) => file !== PUBLISHER)
      .flatMap((file) => {
        const why = publishesStateChanged(readFileSync(file, 'utf8'))
        return why ? [`${path.relative(SRC_DIR, file).split(path.sep).join('/')}: ${why}`] : []
      })
    expect(offending).toEqual([])
  })

  it.each([
    ["await this.modules.publish([platformEvent('connection.state-changed', owner, record)])", true],
    ['const type = `${kind}.state-changed`', true],
    ['await this.modules.publish([platformEvent(PROOF_STATE_CHANGED, { orgId }, record)])', true],
    ["await events.publish([{ type: stateChangedType('proof'), owner, record }])", true],
    ["export const PROOF_STATE_CHANGED = stateChangedType('proof')", false],
    ["await this.modules.publish([platformEvent('credential.revoked', { orgId }, record)])", false],
    ['// publishes `<kind>.state-changed` through ExchangeRecords', false],
  ])('finds a publisher in %j: %s', (source, expected) => {
    expect(publishesStateChanged(source) !== null).toBe(expected)
  })
})
