import { encodeCredentialAttribute } from './encoding'
import { malformed } from './errors'
import { readBigint, readEntries, readObject, readString, type Json } from './read'
import type { CredentialValues } from './types'

/** anoncreds-rs's attr_common_view: attribute names compare without spaces and case-insensitively. */
export function attributeCommonView(name: string): string {
  return name.replaceAll(' ', '').toLowerCase()
}

/** Credential values `{ name: { raw, encoded } }`, checked; encoded values are decimal integers. */
export function readCredentialValues(value: Json, path: string): CredentialValues {
  const entries = readEntries(value, path, 125)
  if (entries.length === 0) throw malformed(path, 'must not be empty')
  const values: CredentialValues = {}
  for (const [name, entry] of entries) {
    const item = readObject(entry, `${path}.${name}`)
    const raw = readString(item.raw, `${path}.${name}.raw`, { nonEmpty: false, maxLength: 65536 })
    const encoded = readString(item.encoded, `${path}.${name}.encoded`)
    readBigint(encoded, `${path}.${name}.encoded`, { allowNegative: true, maxBits: 1024 })
    values[name] = { raw, encoded }
  }
  return values
}

/** Values to sign from raw values (encoded as anoncreds-rs does) and optional caller-chosen encodings. */
export function buildCredentialValues(
  rawValues: Record<string, string>,
  encodedValues: Record<string, string> | undefined,
  path: string,
): CredentialValues {
  const raws = readEntries(rawValues, path, 125)
  if (raws.length === 0) throw malformed(path, 'must not be empty')
  const encodedMap = encodedValues === undefined ? undefined : readObject(encodedValues, 'attributeEncodedValues')
  const values: CredentialValues = {}
  for (const [name, raw] of raws) {
    const rawText = readString(raw, `${path}.${name}`, { nonEmpty: false, maxLength: 65536 })
    const encoded =
      encodedMap && Object.hasOwn(encodedMap, name)
        ? readString(encodedMap[name], `attributeEncodedValues.${name}`)
        : encodeCredentialAttribute(rawText)
    readBigint(encoded, `attributeEncodedValues.${name}`, { allowNegative: true, maxBits: 1024 })
    values[name] = { raw: rawText, encoded }
  }
  return values
}

/**
 * The credential's values keyed by the key's attribute names (common view), as numbers. Two names that
 * collapse to one common view are ambiguous and refused.
 */
export function valuesByCommonView(values: CredentialValues, path: string): Map<string, bigint> {
  const result = new Map<string, bigint>()
  for (const [name, { encoded }] of Object.entries(values)) {
    const key = attributeCommonView(name)
    if (result.has(key)) throw malformed(`${path}.${name}`, 'duplicates another attribute name')
    result.set(key, BigInt(encoded))
  }
  return result
}
