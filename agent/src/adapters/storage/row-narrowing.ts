import { AsyncLocalStorage } from 'node:async_hooks'

import type { MirroredRow } from './record-mirror'

/**
 * A test on the stored rows of one record type, answering false only for rows the caller certainly does not want:
 * given to the mirrored store for a query it does not build itself (Credo's), so that such rows are never parsed or
 * copied into instances. The query's own matching is unchanged; the caller still decides on the instances it gets.
 */
export interface RowNarrowing {
  recordType: string
  mayKeep(row: MirroredRow): boolean
}

/** The narrowing of the call in progress (its async context), if any. */
const narrowings = new AsyncLocalStorage<RowNarrowing>()

/** Runs `work` with `narrowing` applied to the queries for its record type that the mirrored store answers. */
export function withRowNarrowing<R>(narrowing: RowNarrowing, work: () => Promise<R>): Promise<R> {
  return narrowings.run(narrowing, work)
}

/** The narrowing in effect for a query of `recordType`, if any. */
export function rowNarrowingFor(recordType: string): RowNarrowing | undefined {
  const narrowing = narrowings.getStore()
  return narrowing?.recordType === recordType ? narrowing : undefined
}
