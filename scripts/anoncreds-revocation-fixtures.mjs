// Extracts the published AnonCreds revocation known answers into test/fixtures/anoncreds-revocation/ (JSON only).
// Usage: node scripts/anoncreds-revocation-fixtures.mjs <indy-shared-rs checkout> <anoncreds-w3c-test-vectors checkout>
// (esatus/indy-shared-rs at any commit holding wrappers/dotnet/indy-shared-rs-dotnet-test/IndyCredx/PresentationApiTests.cs,
// TimoGlastra/anoncreds-w3c-test-vectors at 5a5d49a6f14fa267c5fe21ee209f795ae57ab08a). See the README there.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const [indySharedRs, vectors] = process.argv.slice(2)
const out = path.resolve('test/fixtures/anoncreds-revocation')

// 1. The indy-credx presentation with a non-revocation proof of the test "VerifyPresentationAsync() works".
const cs = readFileSync(
  path.join(indySharedRs, 'wrappers/dotnet/indy-shared-rs-dotnet-test/IndyCredx/PresentationApiTests.cs'),
  'utf8',
)
const test = cs.slice(cs.indexOf('VerifyPresentationAsync() works.'))
// C# string literals: "..." pieces joined with +; \" is a quote.
const literal = (name) => {
  const start = test.indexOf(`string ${name} = `)
  const end = test.indexOf(';', test.indexOf('}"', start))
  const body = test.slice(start, end)
  return [...body.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\"/g, '"')).join('')
}
const credDef = JSON.parse(literal('credDefJson'))
// The test splices a local tails path into tailsLocation ($"{...}"); the tails file itself is not published.
const revRegDef = JSON.parse(literal('revRegDefJson').replace(/"tailsLocation":".*$/, '"tailsLocation":"unknown"}}'))
const revReg = JSON.parse(literal('revRegJson'))
const presentation = JSON.parse(literal('presentationJson'))
const nonce = /string nonce = "([0-9]+)"/.exec(test)[1]
const timestamp = Number(/long timestamp = ([0-9]+);/.exec(test)[1])
writeFileSync(
  path.join(out, 'indy-credx-presentation.json'),
  JSON.stringify(
    {
      source: 'esatus/indy-shared-rs PresentationApiTests.cs, "VerifyPresentationAsync() works."',
      nonce,
      timestamp,
      credDef,
      revRegDef,
      revReg,
      presentation,
    },
    null,
    2,
  ) + '\n',
)

// 2. anoncreds-rs test vectors (JSON as published; the tails file as base64).
for (const name of [
  'anoncreds-credential-definition',
  'anoncreds-credential-offer',
  'anoncreds-credential-request',
  'anoncreds-legacy-credential',
  'anoncreds-link-secret',
  'anoncreds-presentation-request',
  'anoncreds-revocation-registry-definition',
  'anoncreds-revocation-status-list',
  'anoncreds-schema',
  'w3c-presentation-anoncreds',
]) {
  writeFileSync(path.join(out, `${name}.json`), readFileSync(path.join(vectors, 'test-vectors', `${name}.json`)))
}
const tails = readFileSync(path.join(vectors, 'test-vectors', 'anoncreds-tails-file'))
writeFileSync(
  path.join(out, 'anoncreds-tails-file.json'),
  JSON.stringify(
    {
      source: 'TimoGlastra/anoncreds-w3c-test-vectors test-vectors/anoncreds-tails-file',
      base64: tails.toString('base64'),
    },
    null,
    2,
  ) + '\n',
)
