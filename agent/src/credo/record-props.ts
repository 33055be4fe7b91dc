import { utils, type BaseRecord } from '@credo-ts/core'

/** What every record's props may carry besides its own fields: a given id and creation time (imports, tests). */
export interface RecordIdentity {
  id?: string
  createdAt?: Date
}

/**
 * Fills a record from its props, as Credo's records do in their constructors: a new id and creation time unless the
 * props give them. Called after `super()` (the class's field defaults are set by then); no props leaves the record
 * empty for Credo's storage to fill when it reads one back.
 */
export function assignRecordProps(record: BaseRecord, props: RecordIdentity | undefined): void {
  if (!props) return
  const id = props.id ?? utils.uuid()
  const createdAt = props.createdAt ?? new Date()
  Object.assign(record, { ...props, id, createdAt })
}
