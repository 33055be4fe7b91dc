// Jest cannot require() ES modules (Node can, since 20.19). Credo and @kubernetes/client-node ship only ESM,
// so files in node_modules that use ESM syntax are compiled to CommonJS; everything else passes unchanged.
const swc = require('@swc/core')

const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s)/m
// Jest's module VM cannot run import() without --experimental-vm-modules (which hangs on PGlite's wasm);
// CommonJS bundles such as PGlite's call import('fs/promises') internally. Literal specifiers become require().
const DYNAMIC_IMPORT = /\bimport\((["'][^"'`]+["'])\)/g

module.exports = {
  getCacheKey(source, filename) {
    return require('node:crypto')
      .createHash('sha1')
      .update('esm-transform-v3')
      .update(filename)
      .update(source)
      .digest('hex')
  },
  process(source, filename) {
    if (!filename.endsWith('.mjs') && !ESM_SYNTAX.test(source)) {
      if (!DYNAMIC_IMPORT.test(source)) return { code: source }
      // Bundles may shadow `require` locally, so the module's own require is captured first.
      const rewritten = source.replace(DYNAMIC_IMPORT, 'Promise.resolve().then(() => __jestRequire($1))')
      return { code: `var __jestRequire = require;${rewritten}` }
    }
    const { code, map } = swc.transformSync(source, {
      filename,
      jsc: { parser: { syntax: 'ecmascript', importAttributes: true }, target: 'es2022' },
      module: { type: 'commonjs', ignoreDynamic: false },
      sourceMaps: false,
      inputSourceMap: false,
    })
    return { code, map }
  },
}
