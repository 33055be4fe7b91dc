import { BaseRecord } from '@credo-ts/core'
import { assignRecordProps, type RecordIdentity } from '../credo/record-props'

/** What a tenant is configured with: the label and image its invitations carry by default. */
export interface TenantConfig {
  label: string
  connectionImageUrl?: string
}

export interface TenantRecordProps extends RecordIdentity {
  config: TenantConfig
  storageVersion: string
}

export type TenantRecordTags = { label: string }

/**
 * One holder wallet served by the base agent, stored in the base context. The tenant's own records and keys live
 * under the agent context `tenant-<id>`; this record only names it.
 */
export class TenantRecord extends BaseRecord<TenantRecordTags> {
  public static override readonly type = 'IdplaneTenantRecord'
  public override readonly type = TenantRecord.type

  public config: TenantConfig = { label: '' }
  /** The Credo storage version the tenant's records were written with, for a later update assistant. */
  public storageVersion = ''

  public constructor(props?: TenantRecordProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags(): TenantRecordTags {
    return { ...this._tags, label: this.config.label }
  }
}
