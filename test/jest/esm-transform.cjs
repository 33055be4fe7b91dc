// Jest cannot require() ES modules (Node can, since 20.19). Credo and @kubernetes/client-node ship only ESM,
// so files in node_modules that use ESM syntax are compiled to CommonJS; everything else passes unchanged.
const swc = require('@swc/core')

const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s)/m

module.exports = {
  getCacheKey(source, filename) {
    return require('node:crypto').createHash('sha1').update('esm-transform-v1').update(filename).update(source).digest('hex')
  },
  process(source, filename) {
    if (!filename.endsWith('.mjs') && !ESM_SYNTAX.test(source)) return { code: source }
    const { code, map } = swc.transformSync(source, {
      filename,
      jsc: { parser: { syntax: 'ecmascript', importAttributes: true }, target: 'es2022' },
      module: { type: 'commonjs', ignoreDynamic: true },
      sourceMaps: false,
      inputSourceMap: false,
    })
    return { code, map }
  },
}
