// One definition of how TypeScript is compiled, shared by the build (scripts/build.mjs) and jest.
const path = require('node:path')

const root = path.resolve(__dirname, '..')

/** @returns {import('@swc/core').Options} */
function swcOptions({ forBuild = false } = {}) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
      ...(forBuild
        ? { baseUrl: root, paths: { '@idplane/common': ['common/index.ts'], '@idplane/common/*': ['common/*'] } }
        : {}),
    },
    // Node runs import() from CommonJS natively; jest's VM cannot, so tests turn it into require().
    module: { type: 'commonjs', ignoreDynamic: forBuild },
    sourceMaps: true,
    inputSourceMap: false,
  }
}

module.exports = { swcOptions, root }
