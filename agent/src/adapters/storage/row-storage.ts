import type { BaseRecord, StorageService } from '@credo-ts/core'

import type { MirroredRow } from './record-mirror'

/** A storage whose records belong to agent contexts that can be dropped whole (a deleted tenant). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Credo's own StorageService signature
export interface ContextStorage<T extends BaseRecord<any, any, any>> extends StorageService<T> {
  deleteContext(contextId: string): Promise<void>
}

/**
 * What a store can hand a mirror beyond Credo's StorageService: rows as stored, so the mirror neither parses a
 * scope into instances to load it nor serializes a record a second time after a write. Optional: the mirror
 * falls back to `getAll` and to serializing the record itself.
 */
export interface RowSource {
  /** Up to `limit` rows of one scope, in insertion order, as stored. */
  loadRows(contextId: string, type: string, limit: number): Promise<MirroredRow[]>
  /** The row the last successful write of this very instance stored, forgotten once taken. */
  takeWrittenRow(record: BaseRecord): MirroredRow | undefined
}

export function isRowSource(storage: object): storage is RowSource {
  const candidate = storage as Partial<RowSource>
  return typeof candidate.loadRows === 'function' && typeof candidate.takeWrittenRow === 'function'
}
