import { compiledExports } from './compiled-module'

describe('compiledExports', () => {
  const exportsOfModule = { start: () => 'started' }

  it('takes the exports as they are when the named export is there (jest, require)', () => {
    expect(compiledExports(exportsOfModule, 'start')).toBe(exportsOfModule)
  })

  it("takes them from `default` when Node's import() wrapped our CommonJS", () => {
    const wrapped = { default: exportsOfModule } as unknown as typeof exportsOfModule
    expect(compiledExports(wrapped, 'start')).toBe(exportsOfModule)
  })
})
