// Prints the API's OpenAPI document (the one /api-json serves) as JSON, built in-process from the compiled API in
// dist/ without a database or a listening server: the console's typed client is generated from it
// (scripts/build-console.mjs). Run `node scripts/build.mjs` first.
require('reflect-metadata')
const path = require('node:path')

const dist = path.join(__dirname, '..', 'dist', 'api', 'src')
const { API_MODULES } = require(path.join(dist, 'modules', 'index.js'))
const { configSectionsOf, controllersOf, mountedModules } = require(path.join(dist, 'infra', 'module-registry.js'))
const { loadConfig } = require(path.join(dist, 'infra', 'config.js'))
const { buildOpenApiDocument } = require(path.join(dist, 'infra', 'http', 'openapi.js'))

// The same controllers and prefix as app.ts under the default configuration (modules an operator switches on, such
// as the experimental OpenID4VC ones, are not in the console's client); the server URL does not reach the types.
const config = loadConfig({}, configSectionsOf(API_MODULES))
const document = buildOpenApiDocument(
  { controllers: controllersOf(mountedModules(API_MODULES, config)), routePrefix: '' },
  'http://localhost',
)
process.stdout.write(JSON.stringify(document))
