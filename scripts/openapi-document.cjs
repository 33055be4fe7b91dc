// Prints the API's OpenAPI document (the one /api-json serves) as JSON, built in-process from the compiled API in
// dist/ without a database or a listening server: the console's typed client is generated from it
// (scripts/build-console.mjs). Run `node scripts/build.mjs` first.
require('reflect-metadata')
const path = require('node:path')

const dist = path.join(__dirname, '..', 'dist', 'api', 'src')
const { API_MODULES } = require(path.join(dist, 'modules', 'index.js'))
const { controllersOf } = require(path.join(dist, 'infra', 'module-registry.js'))
const { buildOpenApiDocument } = require(path.join(dist, 'infra', 'http', 'openapi.js'))

// The same controllers and prefix as app.ts; the server URL does not reach the generated types.
const document = buildOpenApiDocument({ controllers: controllersOf(API_MODULES), routePrefix: '' }, 'http://localhost')
process.stdout.write(JSON.stringify(document))
