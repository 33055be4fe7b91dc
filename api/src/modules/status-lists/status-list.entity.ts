import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import type { StatusPurpose } from '@idplane/common/bitstring-status-list'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * What a list is published as: a W3C BitstringStatusListCredential (JSON-LD credentials, issue 25) or an IETF status
 * list token (SD-JWT VCs issued over OpenID4VC, issue 29 item 4).
 */
export const STATUS_LIST_FORMATS = ['bitstring', 'token'] as const
export type StatusListFormat = (typeof STATUS_LIST_FORMATS)[number]

/**
 * A status list of one organization, format, signer and purpose (issue 25 item 4, issue 29 item 4). Its id is in its
 * public URL (`/v1/status-lists/:id`). `allocated` counts the indices given out (moved by the statement that reserves one,
 * so no list gives more than `size`); which index is drawn at random among the free ones (StatusListEntry).
 * `revision` moves with every bit change; `credential` is the signed list of `publishedRevision`.
 */
@Entity({ tableName: 'status_lists' })
@Unique({ properties: ['organization', 'format', 'issuer', 'purpose', 'sequence'] })
export class StatusList extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 16 })
  format: Opt<StatusListFormat> = 'bitstring'

  /**
   * Who signs the list, the issuer of the credentials pointing into it: a DID, or for a token list `x5c` (the
   * organization's active issuance certificate).
   */
  @Property({ type: 'string', length: 2048 })
  issuer!: string

  @Property({ type: 'string', length: 16 })
  purpose!: StatusPurpose

  /** 1 for the issuer's first list of this purpose; a full list is followed by the next number. */
  @Property({ type: 'integer' })
  sequence!: number

  /** The signature suite of the list credential (the first offer's `proofType`); `statuslist+jwt` for a token. */
  @Property({ type: 'string', length: 64 })
  proofType!: string

  @Property({ type: 'integer' })
  size!: number

  @Property({ type: 'integer' })
  allocated: Opt<number> = 0

  @Property({ type: 'integer' })
  revision: Opt<number> = 0

  @Property({ type: 'integer' })
  publishedRevision: Opt<number> = 0

  /** The signed BitstringStatusListCredential served at the list's URL (format bitstring). */
  @Property({ type: 'json', columnType: 'jsonb', nullable: true })
  credential?: Record<string, unknown> | null

  /** The signed status list token (compact JWT) served at the list's URL (format token). */
  @Property({ type: 'text', nullable: true })
  token?: string | null
}

/**
 * One index of a status list given to one credential: the unique pair (list, index) is what makes a random draw
 * atomic (a concurrent draw of the same index fails to insert and draws again). `value` is the bit as asked for;
 * it is in the served list once the list's `publishedRevision` reached the revision that changed it.
 */
@Entity({ tableName: 'status_list_entries' })
@Unique({ properties: ['statusList', 'index'] })
@Index({ properties: ['statusList', 'value'] })
export class StatusListEntryRow extends BaseEntity {
  @ManyToOne(() => StatusList, { deleteRule: 'cascade' })
  statusList!: StatusList

  @Property({ type: 'integer' })
  index!: number

  @Property({ type: 'boolean' })
  value: Opt<boolean> = false
}
