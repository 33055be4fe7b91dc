import { type BaseRecord, type BaseRecordConstructor, JsonTransformer, type TagsBase } from '@credo-ts/core'

import type { MirroredRow } from './record-mirror'

/**
 * A record as a store keeps it (JSON text and cleaned tags), and back. Shared by the SQL store and the mirror so
 * both make the very same row of a record and the very same instance of a row.
 */
export function toRow(record: BaseRecord): MirroredRow {
  return { id: record.id, json: JsonTransformer.serialize(record), tags: cleanTags(record.getTags()) }
}

/** A new instance each time, parsed from the JSON text; its tags are a copy, never the row's own. */
export function toInstance<R extends BaseRecord>(row: MirroredRow, recordClass: BaseRecordConstructor<R>): R {
  const instance = JsonTransformer.fromJSON(JSON.parse(row.json) as object, recordClass)
  instance.id = row.id
  instance.replaceTags(copyTags(row.tags))
  return instance
}

/** Writes of one record are serialized under this key (KeyedQueue), and cached instances are found by it. */
export function writeKey(contextId: string, type: string, id: string): string {
  return `${contextId}\u0000${type}\u0000${id}`
}

/** Null and undefined tags are dropped, as Askar does, so a query for a value never meets a JSON null. */
function cleanTags(tags: TagsBase): TagsBase {
  const out: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) {
    if (value !== undefined && value !== null) out[key] = Array.isArray(value) ? [...value] : value
  }
  return out
}

export function copyTags(tags: TagsBase): TagsBase {
  const copy: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) copy[key] = Array.isArray(value) ? [...value] : value
  return copy
}
