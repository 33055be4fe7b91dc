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

// The `@idplane/common` path alias of tsconfig.json, for sources loaded straight from TypeScript.
const Module = require('node:module')
const path = require('node:path')
const commonDir = path.join(__dirname, '..', 'common')
const resolveFilename = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === '@idplane/common') request = path.join(commonDir, 'index.ts')
  else if (request.startsWith('@idplane/common/'))
    request = path.join(commonDir, request.slice('@idplane/common/'.length))
  return resolveFilename.call(this, request, ...rest)
}
