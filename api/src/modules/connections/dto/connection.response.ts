import {
  arrayOf,
  boolean,
  integer,
  dateTime,
  nullable,
  object,
  optional,
  string,
  unchecked,
  type DataSchema,
} from '../../../infra/http/data-schema'
import type { Connection } from '../connection.entity'

/** The list form of a connection (spec: Connection record). */
export interface ConnectionListItem {
  id: string
  state: string
  theirLabel: string | null
  did: string | null
  theirDid: string | null
  createdAt: string
  updatedAt: string
  outOfBandId: string | null
}

/** One connection (spec: Connection record), plus the alias it was given. */
export interface ConnectionDetail extends ConnectionListItem {
  role: string | null
  autoAcceptConnection: boolean | null
  protocol: string | null
  threadId: string | null
  alias: string | null
}

/** The page of `GET /orgs/:orgId/connections`: the spec's paging fields, the items in `connections`. */
export interface ConnectionPage {
  totalItems: number
  hasNextPage: boolean
  hasPreviousPage: boolean
  nextPage: number | null
  previousPage: number | null
  lastPage: number
  connections: ConnectionListItem[]
}

/** Spec: Invitation creation result. */
export interface InvitationResult {
  invitationUrl: string
  invitation: Record<string, unknown>
  outOfBandRecord: Record<string, unknown>
}

/** What the receive routes answer: the agent's out-of-band record and, once made, the connection. */
export interface ReceivedInvitationResult {
  outOfBandRecord: Record<string, unknown>
  connection?: ConnectionDetail
}

export function toConnectionListItem(row: Connection): ConnectionListItem {
  return {
    id: row.connectionId,
    state: row.state,
    theirLabel: row.theirLabel ?? null,
    did: row.did ?? null,
    theirDid: row.theirDid ?? null,
    createdAt: row.agentCreatedAt.toISOString(),
    updatedAt: row.agentUpdatedAt.toISOString(),
    outOfBandId: row.outOfBandId ?? null,
  }
}

export function toConnectionDetail(row: Connection): ConnectionDetail {
  return {
    ...toConnectionListItem(row),
    role: row.role ?? null,
    autoAcceptConnection: row.autoAcceptConnection ?? null,
    protocol: row.protocol ?? null,
    threadId: row.threadId ?? null,
    alias: row.alias ?? null,
  }
}

const listItemProperties = {
  id: string,
  state: string,
  theirLabel: nullable(string),
  did: nullable(string),
  theirDid: nullable(string),
  createdAt: dateTime,
  updatedAt: dateTime,
  outOfBandId: nullable(string),
}

export const CONNECTION_LIST_ITEM_SCHEMA = object<ConnectionListItem>('ConnectionListItem', listItemProperties)

export const CONNECTION_SCHEMA = object<ConnectionDetail>('Connection', {
  ...listItemProperties,
  role: nullable(string),
  autoAcceptConnection: nullable(boolean),
  protocol: nullable(string),
  threadId: nullable(string),
  alias: nullable(string),
})

export const CONNECTION_PAGE_SCHEMA: DataSchema<ConnectionPage> = object<ConnectionPage>(undefined, {
  totalItems: integer,
  hasNextPage: boolean,
  hasPreviousPage: boolean,
  nextPage: nullable(integer),
  previousPage: nullable(integer),
  lastPage: integer,
  connections: arrayOf(CONNECTION_LIST_ITEM_SCHEMA),
})

const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const
const OUT_OF_BAND_RECORD_SCHEMA = unchecked<Record<string, unknown>>('OutOfBandRecord', { ...OPEN_OBJECT })

export const INVITATION_RESULT_SCHEMA = object<InvitationResult>('ConnectionInvitation', {
  invitationUrl: string,
  invitation: unchecked<Record<string, unknown>>('OutOfBandInvitation', { ...OPEN_OBJECT }),
  outOfBandRecord: OUT_OF_BAND_RECORD_SCHEMA,
})

export const RECEIVED_INVITATION_SCHEMA = object<ReceivedInvitationResult>('ReceivedInvitation', {
  outOfBandRecord: OUT_OF_BAND_RECORD_SCHEMA,
  connection: optional(CONNECTION_SCHEMA),
})
