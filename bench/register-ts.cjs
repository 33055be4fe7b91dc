// Lets `node -r ./bench/register-ts.cjs bench/x.bench.ts` run a benchmark written in TypeScript: .ts files are
// compiled with the same swc options as the build and the tests (benchmarks are not part of dist/).
const fs = require('node:fs')
const swc = require('@swc/core')
const { swcOptions } = require('../scripts/swc-options.cjs')

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    ...swcOptions(),
    filename,
    sourceMaps: 'inline',
  })
  module._compile(code, filename)
}
