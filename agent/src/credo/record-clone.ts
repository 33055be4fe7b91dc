import { BaseRecord } from '@credo-ts/core'

import { cloneInstance } from './clone-instance'

/**
 * Credo copies a record at every save and update (the copy goes out with the RecordSaved and RecordUpdated events)
 * and at every state-changed event, through `BaseRecord.clone`: class-transformer's instanceToInstance with its
 * decorators ignored, which builds each object anew through its constructor and walks class-transformer's metadata
 * per property. With decorators ignored that copy is structural, which cloneInstance makes without the metadata
 * walk, at a tenth of the cost: 2.3 % of each agent's busy time in `bench:agent` (docs/decisions.md, "Work Credo's
 * libraries repeat, done once"). `record-clone.test.ts` checks each record type the agent writes against Credo's own
 * copy. Belongs in Credo (`BaseRecord.clone`).
 */
export function cloneRecordsStructurally(): void {
  BaseRecord.prototype.clone = function <T extends BaseRecord>(this: T): T {
    return cloneInstance(this)
  }
}
