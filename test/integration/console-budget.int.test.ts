import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const ROOT = path.join(__dirname, '..', '..')
const BUILT = path.join(ROOT, 'dist', 'console')
/** Issue 26: the first load of /console carries under 250 KB of compressed script and style. */
const BUDGET_BYTES = 250_000

/**
 * The built console (what `make build` writes and `make test` builds first): its first load within the budget, and a
 * page the API's CSP allows as it is (no inline script or style, nothing from another origin).
 */
describe('the built console', () => {
  let index: string

  beforeAll(() => {
    if (!existsSync(path.join(BUILT, 'index.html'))) {
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' })
    }
    index = readFileSync(path.join(BUILT, 'index.html'), 'utf8')
  }, 300_000)

  /** The files index.html makes the browser fetch before the app runs. */
  function firstLoad(): string[] {
    const references = [...index.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    )
    return references.filter((reference) => /\.(js|css)$/.test(reference))
  }

  it('loads under 250 KB of gzip-compressed script and style', () => {
    const files = firstLoad()
    expect(files.some((file) => file.endsWith('.js'))).toBe(true)
    expect(files.some((file) => file.endsWith('.css'))).toBe(true)
    const sizes = files.map((file) => {
      expect(file.startsWith('/console/assets/')).toBe(true)
      const content = readFileSync(path.join(BUILT, file.slice('/console/'.length)))
      return { file, gzip: gzipSync(content, { level: 9 }).length }
    })
    const total = sizes.reduce((sum, entry) => sum + entry.gzip, 0)
    console.log(`console first load: ${total} bytes gzip (${JSON.stringify(sizes)})`)
    expect(total).toBeLessThan(BUDGET_BYTES)
  })

  it('has no inline script or style and loads nothing from another origin', () => {
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(index).not.toMatch(/<style\b/)
    expect(index).not.toMatch(/\bstyle="/)
    expect(index).not.toMatch(/\bon[a-z]+="/)
    for (const match of index.matchAll(/\b(?:src|href)="([^"]+)"/g)) expect(match[1]).toMatch(/^\/(console\/|api$)/)
  })

  it('has a brotli and a gzip copy of every script and style for the API to send', () => {
    for (const file of firstLoad()) {
      const plain = path.join(BUILT, file.slice('/console/'.length))
      expect(existsSync(`${plain}.br`)).toBe(true)
      expect(existsSync(`${plain}.gz`)).toBe(true)
    }
  })
})
