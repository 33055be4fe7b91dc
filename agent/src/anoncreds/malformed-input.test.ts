/**
 * Property: whatever one field of an input object is replaced with, every operation either succeeds or
 * throws AnonCredsError; never a TypeError or RangeError that would escape as a 500.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import fc from 'fast-check'

import { AnonCredsError, createCredential, createCredentialRequest, processCredential } from './index'

type Json = Record<string, unknown>
const fixture = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'anoncreds', 'small.json'), 'utf8'),
) as Record<string, Json> & { linkSecret: string }

/** Every path to a value in the JSON (objects and arrays included), so a mutation can hit any depth. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix]
  const children = Object.entries(value).flatMap(([key, child]) => paths(child, [...prefix, key]))
  return [prefix, ...children]
}

function replaced(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>
  copy[path[0]] = replaced(copy[path[0]], path.slice(1), replacement)
  return copy
}

const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.bigInt({ min: -(2n ** 4200n), max: 2n ** 4200n }).map((n) => n.toString()),
  fc.constantFrom('', '0', '1', '-1', 'NaN', '1e400', '__proto__', ' 12', '٣'),
)

function onlyAnonCredsErrors(action: () => unknown): void {
  try {
    action()
  } catch (error) {
    if (!(error instanceof AnonCredsError)) throw error
  }
}

describe('malformed AnonCreds input', () => {
  it('processCredential: any field of the credential or the metadata replaced', () => {
    const inputs = { credential: fixture.credential, credentialRequestMetadata: fixture.credentialRequestMetadata }
    fc.assert(
      fc.property(fc.constantFrom(...paths(inputs).filter((p) => p.length > 0)), replacement, (path, value) => {
        const mutated = replaced(inputs, path, value) as typeof inputs
        onlyAnonCredsErrors(() =>
          processCredential({
            ...mutated,
            linkSecret: fixture.linkSecret,
            credentialDefinition: fixture.credentialDefinition,
          }),
        )
      }),
      { numRuns: 150 },
    )
  })

  it('createCredentialRequest: any field of the offer or the credential definition replaced', () => {
    const inputs = { credentialOffer: fixture.credentialOffer, credentialDefinition: fixture.credentialDefinition }
    fc.assert(
      fc.property(fc.constantFrom(...paths(inputs).filter((p) => p.length > 0)), replacement, (path, value) => {
        const mutated = replaced(inputs, path, value) as typeof inputs
        onlyAnonCredsErrors(() =>
          createCredentialRequest({ ...mutated, entropy: 'e', linkSecret: fixture.linkSecret, linkSecretId: 'x' }),
        )
      }),
      { numRuns: 100 },
    )
  })

  it('createCredential: any field of the request, the offer or the private key replaced', () => {
    const inputs = {
      credentialRequest: fixture.credentialRequest,
      credentialOffer: fixture.credentialOffer,
      credentialDefinitionPrivate: fixture.credentialDefinitionPrivate,
    }
    fc.assert(
      fc.property(fc.constantFrom(...paths(inputs).filter((p) => p.length > 0)), replacement, (path, value) => {
        const mutated = replaced(inputs, path, value) as typeof inputs
        onlyAnonCredsErrors(() =>
          createCredential({
            ...mutated,
            credentialDefinition: fixture.credentialDefinition,
            attributeRawValues: fixture.attributeRawValues as unknown as Record<string, string>,
          }),
        )
      }),
      { numRuns: 100 },
    )
  })

  it('raw values that are not strings are refused with AnonCredsError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), (value) => {
        onlyAnonCredsErrors(() =>
          createCredential({
            credentialRequest: fixture.credentialRequest,
            credentialOffer: fixture.credentialOffer,
            credentialDefinitionPrivate: fixture.credentialDefinitionPrivate,
            credentialDefinition: fixture.credentialDefinition,
            attributeRawValues: value as Record<string, string>,
          }),
        )
      }),
      { numRuns: 50 },
    )
  })
})
