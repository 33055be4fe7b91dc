import { BaseRecord } from '@credo-ts/core'

export type TenantRoutingRecordTags = { tenantId: string }

/**
 * Recipient key → tenant, in the base context. The id is the key's fingerprint, so a key can belong to one tenant
 * only (a second save is a RecordDuplicateError) and the lookup for an inbound message is a primary-key read.
 */
export class TenantRoutingRecord extends BaseRecord<TenantRoutingRecordTags> {
  public static override readonly type = 'IdplaneTenantRoutingRecord'
  public override readonly type = TenantRoutingRecord.type

  public tenantId = ''

  public constructor(props?: { recipientKeyFingerprint: string; tenantId: string }) {
    super()
    if (props) {
      this.id = props.recipientKeyFingerprint
      this.createdAt = new Date()
      this.tenantId = props.tenantId
    }
  }

  public getTags(): TenantRoutingRecordTags {
    return { ...this._tags, tenantId: this.tenantId }
  }
}
