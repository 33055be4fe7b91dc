import { inject, injectable } from 'inversify'
import { IdplaneError, InvalidInputError, NotFoundError } from '@idplane/common'
import type { ConnectionRecordJson, ReceivedInvitation } from '@idplane/common/agent-contract/admin-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { SHORT_URL_PATH, ShortUrls, invitationIn } from '../short-urls/short-urls.service'
import { ConnectionRecords } from './connection-records'
import type { Connection } from './connection.entity'
import { ConnectionsRepository, type ConnectionPageQuery } from './connections.repository'
import { toAgentInvitation, type CreateConnectionInvitationDto } from './dto/create-invitation.dto'
import {
  toConnectionDetail,
  type ConnectionDetail,
  type InvitationResult,
  type ReceivedInvitationResult,
} from './dto/connection.response'
import {
  toAgentReceiveOptions,
  type ReceiveInvitationDto,
  type ReceiveInvitationUrlDto,
} from './dto/receive-invitation.dto'

/** How long a single read waits for the agent's record before answering with the platform's alone. */
const LIVE_READ_TIMEOUT_MS = 3000

/** URL parameters that carry an out-of-band invitation (current and legacy forms). */
const INVITATION_PARAMETERS = ['oob', 'c_i', 'd_m']

/**
 * Connections of an organization (spec: Connections): invitations and receiving them through the organization's
 * agent, and the records its events keep (ConnectionRecords).
 */
@injectable()
export class ConnectionsService {
  /** Where this platform's short links start (`<public URL>/s`). */
  private readonly shortLinkBase: string

  public constructor(
    private readonly agents: AgentClients,
    private readonly connections: ConnectionsRepository,
    private readonly records: ConnectionRecords,
    private readonly shortUrls: ShortUrls,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.shortLinkBase = `${config.http.publicUrl.replace(/\/$/, '')}${SHORT_URL_PATH}`
  }

  /**
   * A new out-of-band invitation of the organization's agent; with `isShortenUrl`, `invitationUrl` is a platform
   * short link to it.
   * @throws NotFoundError when the organization has no agent; the agent's 400/404/409/502 as AgentClient maps them
   */
  public async createInvitation(orgId: string, body: CreateConnectionInvitationDto): Promise<InvitationResult> {
    const agent = await this.agents.forOrg(orgId)
    const created = await agent.createInvitation(toAgentInvitation(body))
    const invitationUrl = body.isShortenUrl
      ? await this.shortUrls.shorten(created.invitationUrl, { orgId })
      : created.invitationUrl
    return { invitationUrl, invitation: created.invitation, outOfBandRecord: created.outOfBandRecord }
  }

  /**
   * Receives an invitation by URL. An URL that carries an unreadable invitation, or a short link of this platform
   * that is unknown or expired, is refused here with a clear 400/404 (the agent could only answer that it failed).
   */
  public async receiveInvitationUrl(orgId: string, body: ReceiveInvitationUrlDto): Promise<ReceivedInvitationResult> {
    await this.checkInvitationUrl(body.invitationUrl)
    const agent = await this.agents.forOrg(orgId)
    const received = await agent.receiveInvitationUrl({
      invitationUrl: body.invitationUrl,
      ...toAgentReceiveOptions(body),
    })
    return this.recordReceived(orgId, received)
  }

  public async receiveInvitation(orgId: string, body: ReceiveInvitationDto): Promise<ReceivedInvitationResult> {
    const agent = await this.agents.forOrg(orgId)
    const received = await agent.receiveInvitation({ invitation: body.invitation, ...toAgentReceiveOptions(body) })
    return this.recordReceived(orgId, received)
  }

  public list(orgId: string, query: ConnectionPageQuery): Promise<[Connection[], number]> {
    return this.connections.page(orgId, query)
  }

  /**
   * One connection: the record, brought up to date with the agent's when the agent answers (a read never fails
   * because the agent is down; the record is the platform's account of it).
   * @throws NotFoundError when neither the platform nor the organization's agent knows the connection
   */
  public async get(orgId: string, connectionId: string): Promise<ConnectionDetail> {
    const stored = await this.connections.findOne(orgId, connectionId)
    const live = await this.liveConnection(orgId, connectionId)
    // Most reads find the record current: no write transaction for them.
    const isNews = live !== undefined && (!stored || this.records.wouldChange(stored, live))
    const row = isNews ? ((await this.records.applyAnswered(orgId, live))?.row ?? stored) : stored
    if (!row) throw new NotFoundError('Connection not found')
    return toConnectionDetail(row)
  }

  /**
   * Answers a connection request waiting for the organization's answer (an invitation made with
   * `autoAcceptConnection: false`).
   * @throws NotFoundError for an unknown connection; ConflictError (409, from the agent) when no request waits
   */
  public async accept(orgId: string, connectionId: string): Promise<ConnectionDetail> {
    const agent = await this.agents.forOrg(orgId)
    if (!(await this.connections.findOne(orgId, connectionId))) {
      // The request's event may not have arrived yet: the agent's record counts too.
      const live = await this.liveConnection(orgId, connectionId, agent)
      if (!live) throw new NotFoundError('Connection not found')
      await this.records.applyAnswered(orgId, live)
    }
    const accepted = await agent.acceptConnectionRequest(connectionId)
    const row = (await this.records.applyAnswered(orgId, accepted))?.row
    if (!row) throw new NotFoundError('Connection not found')
    return toConnectionDetail(row)
  }

  /**
   * Deletes every connection of the organization: the agent's records first (so no later event brings one back
   * from a record that still exists), then the platform's. The count of platform records deleted.
   * @throws InvalidStateError (409) when the organization's agent is not ready; the agent's errors
   */
  public async deleteAll(orgId: string): Promise<number> {
    // Taken before the agent's list: every record created before it is in that list and deleted below.
    const startedAt = new Date()
    const agent = await this.agentIfAny(orgId)
    if (agent) {
      for (const connection of await agent.listConnections()) {
        await agent.deleteConnection(connection.id).catch((error: unknown) => {
          if (!(error instanceof NotFoundError)) throw error
        })
      }
    }
    return this.connections.deleteAll(orgId, startedAt)
  }

  /**
   * @throws InvalidInputError when the URL's `oob` (or `c_i`, `d_m`) parameter holds no invitation
   * @throws NotFoundError for a short link of this platform that does not exist or has expired
   */
  private async checkInvitationUrl(invitationUrl: string): Promise<void> {
    const url = new URL(invitationUrl)
    if (INVITATION_PARAMETERS.some((name) => url.searchParams.has(name))) {
      if (!invitationIn(invitationUrl)) {
        throw new InvalidInputError('invitationUrl carries no readable out-of-band invitation', [
          { field: 'invitationUrl', message: 'the oob parameter must be a base64url-encoded invitation' },
        ])
      }
      return
    }
    const ownShortLink = `${this.shortLinkBase}/`
    if (invitationUrl.startsWith(ownShortLink)) await this.shortUrls.resolve(invitationUrl.slice(ownShortLink.length))
  }

  private async recordReceived(orgId: string, received: ReceivedInvitation): Promise<ReceivedInvitationResult> {
    const row = received.connectionRecord
      ? (await this.records.applyAnswered(orgId, received.connectionRecord))?.row
      : undefined
    return { outOfBandRecord: received.outOfBandRecord, ...(row ? { connection: toConnectionDetail(row) } : {}) }
  }

  /** The agent's record of the connection, or undefined when the agent does not know it or cannot be asked. */
  private async liveConnection(
    orgId: string,
    connectionId: string,
    known?: AgentClient,
  ): Promise<ConnectionRecordJson | undefined> {
    try {
      const agent = known ?? (await this.agents.forOrg(orgId))
      return await agent.withTimeout(LIVE_READ_TIMEOUT_MS).getConnection(connectionId)
    } catch (error) {
      if (error instanceof IdplaneError) return undefined
      throw error
    }
  }

  private async agentIfAny(orgId: string): Promise<AgentClient | undefined> {
    try {
      return await this.agents.forOrg(orgId)
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }
}
