import { malformed } from './errors'
import { assertIdentifier } from './identifiers'
import { readArray, readObject, readString, type Json } from './read'
import type { Schema } from './types'

/** anoncreds-rs refuses schemas with more attributes than this. */
export const MAX_ATTRIBUTES_COUNT = 125

export function createSchema(options: {
  name: string
  version: string
  issuerId: string
  attributeNames: string[]
}): Schema {
  return readSchema({
    name: options.name,
    version: options.version,
    attrNames: options.attributeNames,
    issuerId: options.issuerId,
  })
}

/** Reads and validates a schema (unique, non-empty attribute names; a valid issuer id). */
export function readSchema(value: Json, path = 'schema'): Schema {
  const schema = readObject(value, path)
  const names = readArray(schema.attrNames, `${path}.attrNames`, MAX_ATTRIBUTES_COUNT + 1).map((name, i) =>
    readString(name, `${path}.attrNames[${i}]`, { maxLength: 256 }),
  )
  if (names.length === 0) throw malformed(`${path}.attrNames`, 'must not be empty')
  if (names.length > MAX_ATTRIBUTES_COUNT)
    throw malformed(`${path}.attrNames`, `at most ${MAX_ATTRIBUTES_COUNT} attributes`)
  if (new Set(names).size !== names.length) throw malformed(`${path}.attrNames`, 'attributes must be unique')
  return {
    name: readString(schema.name, `${path}.name`, { nonEmpty: false }),
    version: readString(schema.version, `${path}.version`, { nonEmpty: false }),
    attrNames: names,
    issuerId: assertIdentifier('issuerId', readString(schema.issuerId, `${path}.issuerId`), `${path}.issuerId`),
  }
}
