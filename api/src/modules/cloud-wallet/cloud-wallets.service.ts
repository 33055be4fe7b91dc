import { inject, injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  Logger,
  NotFoundError,
  NotImplementedError,
  UpstreamError,
} from '@idplane/common'
import type {
  AgentDidMethod,
  BasicMessageRecordJson,
  ConnectionRecordJson,
  CreatedDid,
  CreatedInvitation,
  CredentialRecordJson,
  DidListEntry,
  ProofRecordJson,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { ledgerConfig, type LedgerConfig } from '../ledger/ledger.config'
import { toAgentReceiveOptions, type ReceiveInvitationUrlDto } from '../connections/dto/receive-invitation.dto'
import { BaseWalletService } from './base-wallet.service'
import type { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import type { WalletRecordKind } from './wallet-record.entity'
import { WalletRecords } from './wallet-records'
import { WalletRecordsRepository } from './wallet-records.repository'
import type { RegisterWebhookDto, UpdateWebhookDto } from '../webhooks/dto/register-webhook.dto'
import { toWebhookResponse, type WebhookResponse } from '../webhooks/dto/webhook.response'
import { WebhooksService } from '../webhooks/webhooks.service'
import type {
  AcceptOfferDto,
  AcceptProofRequestDto,
  CreateWalletDidDto,
  CreateWalletDto,
  WalletConnectionsQuery,
  WalletCredentialsQuery,
  WalletInvitationDto,
  WalletProofsQuery,
} from './dto/wallet.dto'
import { toCloudWalletResponse, type CloudWalletResponse } from './dto/wallet.response'

export const NO_WALLET = 'You have no cloud wallet: create one first with POST /v1/create-wallet'

const AGENT_DID_METHODS: readonly string[] = ['key', 'peer', 'web', 'indy'] satisfies AgentDidMethod[]
/** Ledger methods the spec names that this platform has no ledger for (docs/decisions.md, "Cloud wallet"). */
const LEDGER_DID_METHODS: readonly string[] = ['polygon']

/**
 * `network` of an `indy` DID: the platform ledger is the only network, so absent, its namespace (`idplane`) or
 * that namespace in did:indy style (`did:indy:idplane`) are accepted, anything else is a 400 rather than a DID
 * silently written to another network than the one asked for.
 * @throws InvalidInputError naming `network`
 */
export function checkIndyNetwork(network: string | undefined, namespace: string): void {
  if (network === undefined) return
  const given = network.trim()
  if (given === namespace || given === `did:indy:${namespace}`) return
  throw new InvalidInputError(`Unknown network ${given}: this platform's ledger is ${namespace}`, [
    { field: 'network', message: `network must be ${namespace} (or did:indy:${namespace}) or absent` },
  ])
}

type UserPrincipal = Extract<Principal, { kind: 'user' }>

/**
 * The holder's cloud wallet (spec: Cloud wallet): one tenant of the base agent per user. Every operation resolves
 * the caller's own tenant from the token and talks to the agent only as that tenant (X-Tenant-Id), so another
 * user's record ids are unknown there (404). Lists answer from the wallet's holder records (WalletRecords, kept
 * from the agent's events); single reads ask the agent and update the record (docs/decisions.md).
 */
@injectable()
export class CloudWalletsService {
  private readonly log: Logger
  private readonly ledger: LedgerConfig

  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsRepository,
    private readonly records: WalletRecordsRepository,
    private readonly walletRecords: WalletRecords,
    private readonly webhooks: WebhooksService,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'cloud-wallet' })
    this.ledger = sectionOf(config, ledgerConfig)
  }

  /**
   * @throws ForbiddenError for an organization's client (wallets are people's)
   * @throws InvalidStateError (409) while no base wallet is configured
   * @throws ConflictError when the user already has a wallet
   */
  public async create(principal: Principal, body: CreateWalletDto): Promise<CloudWalletResponse> {
    const user = asUser(principal)
    const base = await this.base.client()
    if (await this.wallets.findForUser(user.userId)) throw alreadyHasWallet()
    const tenant = await base.createTenant({
      label: body.label.trim(),
      ...(body.connectionImageUrl ? { connectionImageUrl: body.connectionImageUrl } : {}),
    })
    try {
      const wallet = await this.wallets.create({
        userId: user.userId,
        email: user.email,
        tenantId: tenant.id,
        label: body.label.trim(),
        connectionImageUrl: body.connectionImageUrl,
      })
      return toCloudWalletResponse(wallet)
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error
      // A concurrent create of the same user won: the tenant made here holds nothing and is removed.
      await base.deleteTenant(tenant.id).catch((cause: unknown) =>
        this.log.warn('Could not delete the tenant of a losing wallet create', {
          tenantId: tenant.id,
          error: (cause as Error).message,
        }),
      )
      throw alreadyHasWallet()
    }
  }

  public async createInvitation(principal: Principal, body: WalletInvitationDto): Promise<CreatedInvitation> {
    return (await this.tenantOf(principal)).createInvitation({
      ...body,
      autoAcceptConnection: body.autoAcceptConnection ?? true,
    })
  }

  /**
   * The wallet's connections from its holder records (kept from the base agent's events), filtered; every filter
   * is an exact match on the record (`myDid` is the record's `did`).
   */
  public async connections(principal: Principal, query: WalletConnectionsQuery): Promise<ConnectionRecordJson[]> {
    const { wallet } = await this.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'connection')
    const wanted: [keyof WalletConnectionsQuery, string][] = [
      ['outOfBandId', 'outOfBandId'],
      ['alias', 'alias'],
      ['myDid', 'did'],
      ['theirDid', 'theirDid'],
      ['theirLabel', 'theirLabel'],
    ]
    return rows
      .map((row) => row.record as ConnectionRecordJson)
      .filter((record) =>
        wanted.every(([filter, field]) => query[filter] === undefined || record[field] === query[filter]),
      )
  }

  public async connection(principal: Principal, connectionId: string): Promise<ConnectionRecordJson> {
    const owner = await this.walletOf(principal)
    return this.readThrough(owner, 'connection', connectionId, () => owner.agent.getConnection(connectionId))
  }

  public async receiveInvitationUrl(principal: Principal, body: ReceiveInvitationUrlDto): Promise<ReceivedInvitation> {
    const owner = await this.walletOf(principal)
    const received = await owner.agent.receiveInvitationUrl({
      invitationUrl: body.invitationUrl,
      ...toAgentReceiveOptions(body),
    })
    if (received.connectionRecord) await this.remember(owner, 'connection', received.connectionRecord)
    return received
  }

  /** The wallet's credential records from its holder records, filtered by `threadId`, `connectionId`, `state`. */
  public async credentials(principal: Principal, query: WalletCredentialsQuery): Promise<CredentialRecordJson[]> {
    const { wallet } = await this.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'credential', definedFields(query))
    return rows.map((row) => row.record as CredentialRecordJson)
  }

  public async credential(principal: Principal, credentialRecordId: string): Promise<CredentialRecordJson> {
    const owner = await this.walletOf(principal)
    return this.readThrough(owner, 'credential', credentialRecordId, () =>
      owner.agent.getCredential(credentialRecordId),
    )
  }

  /** What the offer (or the issued credential) holds, by format; read from the wallet's agent. */
  public async credentialFormatData(
    principal: Principal,
    credentialRecordId: string,
  ): Promise<Record<string, unknown>> {
    return (await this.tenantOf(principal)).getCredentialFormData(credentialRecordId)
  }

  public async acceptOffer(principal: Principal, body: AcceptOfferDto): Promise<CredentialRecordJson> {
    const owner = await this.walletOf(principal)
    // Read first: another wallet's record id is a 404 here, before anything is attempted on it.
    await owner.agent.getCredential(body.credentialRecordId)
    const accepted = await owner.agent.acceptCredentialOffer({
      credentialRecordId: body.credentialRecordId,
      autoAcceptCredential: body.autoAcceptCredential,
      credentialFormats: body.credentialFormats,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
    await this.remember(owner, 'credential', accepted)
    return accepted
  }

  /** The wallet's proof records from its holder records, filtered by `threadId`. */
  public async proofs(principal: Principal, query: WalletProofsQuery): Promise<ProofRecordJson[]> {
    const { wallet } = await this.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'proof', definedFields(query))
    return rows.map((row) => row.record as ProofRecordJson)
  }

  public async proof(principal: Principal, proofRecordId: string): Promise<ProofRecordJson> {
    const owner = await this.walletOf(principal)
    return this.readThrough(owner, 'proof', proofRecordId, () => owner.agent.getProof(proofRecordId))
  }

  /** What the proof request asks for (and, once answered, what was presented), by format. */
  public async proofFormatData(principal: Principal, proofRecordId: string): Promise<Record<string, unknown>> {
    return (await (await this.tenantOf(principal)).getProofFormData(proofRecordId)).formData
  }

  public async acceptProofRequest(principal: Principal, body: AcceptProofRequestDto): Promise<ProofRecordJson> {
    const owner = await this.walletOf(principal)
    await owner.agent.getProof(body.proofRecordId)
    const accepted = await owner.agent.acceptProofRequest({
      proofRecordId: body.proofRecordId,
      filterByPresentationPreview: body.filterByPresentationPreview ?? false,
      filterByNonRevocationRequirements: body.filterByNonRevocationRequirements ?? false,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
    await this.remember(owner, 'proof', accepted)
    return accepted
  }

  /**
   * @throws NotImplementedError (501) for `polygon` and for importing an existing `did`
   * @throws InvalidInputError for another method, `web` without `domain`, or `indy` on another `network`
   */
  public async createDid(principal: Principal, body: CreateWalletDidDto): Promise<CreatedDid> {
    const method = body.method.trim().toLowerCase()
    if (LEDGER_DID_METHODS.includes(method)) {
      throw new NotImplementedError(`DID method ${method} needs a ledger this platform does not have`)
    }
    if (!AGENT_DID_METHODS.includes(method)) {
      throw new InvalidInputError('Unsupported DID method', [
        {
          field: 'method',
          message: `method must be one of ${[...AGENT_DID_METHODS, ...LEDGER_DID_METHODS].join(', ')}`,
        },
      ])
    }
    if (body.did !== undefined) {
      throw new NotImplementedError('Importing an existing DID into a cloud wallet is not available yet')
    }
    if (method === 'web' && !body.domain) {
      throw new InvalidInputError('domain is required for did:web', [
        { field: 'domain', message: 'domain is required' },
      ])
    }
    if (method === 'indy') checkIndyNetwork(body.network, this.ledger.namespace)
    const tenant = await this.tenantOf(principal)
    return tenant.createDid({
      method: method as AgentDidMethod,
      keyType: body.keyType,
      ...(body.seed === undefined ? {} : { seed: body.seed }),
      ...(body.privatekey === undefined ? {} : { privatekey: body.privatekey }),
      ...(body.domain === undefined ? {} : { domain: body.domain }),
      ...(body.endpoint === undefined ? {} : { endpoint: body.endpoint }),
    })
  }

  public async dids(principal: Principal): Promise<DidListEntry[]> {
    return (await this.walletOf(principal)).agent.listDids()
  }

  public async sendBasicMessage(
    principal: Principal,
    connectionId: string,
    content: string,
  ): Promise<BasicMessageRecordJson> {
    const owner = await this.walletOf(principal)
    await owner.agent.getConnection(connectionId)
    const sent = await owner.agent.sendBasicMessage(connectionId, { content })
    await this.remember(owner, 'basic-message', sent)
    return sent
  }

  /** Every basic message of one of the wallet's connections, from its holder records, oldest first. */
  public async basicMessages(principal: Principal, connectionId: string): Promise<BasicMessageRecordJson[]> {
    const owner = await this.walletOf(principal)
    // The connection is read first: another wallet's connection id is a 404, never an empty list.
    await this.readThrough(owner, 'connection', connectionId, () => owner.agent.getConnection(connectionId))
    const rows = await this.records.list(owner.wallet.id, 'basic-message', { connectionId })
    return rows.map((row) => row.record as BasicMessageRecordJson)
  }

  /**
   * Registers (or replaces) the webhook of the caller's wallet: the wallet's exchange events are delivered to it.
   * @throws NotFoundError when the caller has no wallet
   */
  public async registerWebhook(principal: Principal, body: RegisterWebhookDto): Promise<WebhookResponse> {
    const { user, wallet } = await this.ownWallet(principal)
    return toWebhookResponse(await this.webhooks.registerForTenant(wallet.tenantId, user.userId, body))
  }

  /**
   * Changes the URL, the secret or both of the caller's wallet webhook.
   * @throws NotFoundError when the caller has no wallet, or no webhook
   */
  public async updateWebhook(principal: Principal, body: UpdateWebhookDto): Promise<WebhookResponse> {
    const { wallet } = await this.ownWallet(principal)
    return toWebhookResponse(await this.webhooks.updateForTenant(wallet.tenantId, body))
  }

  /** The caller's wallet row (no agent needed). */
  private async ownWallet(principal: Principal): Promise<{ user: UserPrincipal; wallet: CloudWallet }> {
    const user = asUser(principal)
    const wallet = await this.wallets.findForUser(user.userId)
    if (!wallet) throw new NotFoundError(NO_WALLET)
    return { user, wallet }
  }

  /**
   * One record: the agent's current answer (it is the source of the records), applied to the holder record on
   * the way. While the agent cannot be reached, the stored record answers instead of a 502.
   * @throws NotFoundError when the tenant has no such record (another wallet's id included)
   */
  private async readThrough<T extends object>(
    owner: WalletAccess,
    kind: WalletRecordKind,
    recordId: string,
    read: () => Promise<T>,
  ): Promise<T> {
    let answer: T
    try {
      answer = await read()
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error
      const stored = await this.records.findOne(owner.wallet.id, kind, recordId)
      if (!stored) throw error
      return stored.record as T
    }
    await this.remember(owner, kind, answer)
    return answer
  }

  /** Applies an agent answer to the holder records; a failure there is logged, the call itself succeeded. */
  private async remember(owner: WalletAccess, kind: WalletRecordKind, record: object): Promise<void> {
    await this.walletRecords
      .applyAnswered(
        { walletId: owner.wallet.id, tenantId: owner.wallet.tenantId },
        kind,
        record as Record<string, unknown>,
      )
      .catch((error: unknown) =>
        this.log.warn('Could not apply an agent answer to the wallet records', {
          kind,
          error: (error as Error).message,
        }),
      )
  }

  /**
   * The caller's wallet and the base agent acting as its tenant.
   * @throws InvalidStateError (409) while no base wallet is configured
   * @throws NotFoundError when the caller has no wallet yet
   */
  private async walletOf(principal: Principal): Promise<WalletAccess> {
    const user = asUser(principal)
    const base = await this.base.client()
    const wallet = await this.wallets.findForUser(user.userId)
    if (!wallet) throw new NotFoundError(NO_WALLET)
    return { wallet, agent: base.forTenant(wallet.tenantId) }
  }

  /** The base agent acting as the caller's tenant. */
  private async tenantOf(principal: Principal): Promise<AgentClient> {
    return (await this.walletOf(principal)).agent
  }
}

interface WalletAccess {
  wallet: CloudWallet
  agent: AgentClient
}

function asUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') {
    throw new ForbiddenError('Cloud wallets belong to signed-in users; an organization client has none')
  }
  return principal
}

function alreadyHasWallet(): ConflictError {
  return new ConflictError('You already have a cloud wallet')
}

/** The filters that were given (class-transformer leaves absent ones as undefined keys). */
function definedFields<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<T>
}
