import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  Logger,
  NotFoundError,
  NotImplementedError,
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
import { toAgentReceiveOptions, type ReceiveInvitationUrlDto } from '../connections/dto/receive-invitation.dto'
import { BaseWalletService } from './base-wallet.service'
import { CloudWalletsRepository } from './cloud-wallets.repository'
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

const AGENT_DID_METHODS: readonly string[] = ['key', 'peer', 'web'] satisfies AgentDidMethod[]
/** Ledger methods the spec names that wait for the ledger work (docs/decisions.md, "Cloud wallet"). */
const LEDGER_DID_METHODS: readonly string[] = ['indy', 'polygon']

type UserPrincipal = Extract<Principal, { kind: 'user' }>

/**
 * The holder's cloud wallet (spec: Cloud wallet): one tenant of the base agent per user. Every operation resolves
 * the caller's own tenant from the token and talks to the agent only as that tenant (X-Tenant-Id), so another
 * user's record ids are unknown there (404).
 */
@injectable()
export class CloudWalletsService {
  private readonly log: Logger

  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsRepository,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'cloud-wallet' })
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

  public async connections(principal: Principal, query: WalletConnectionsQuery): Promise<ConnectionRecordJson[]> {
    const { alias, theirLabel, ...tagged } = definedFields(query)
    const records = await (await this.tenantOf(principal)).listConnections(tagged)
    // Credo's connection records have no alias or theirLabel tag (a tag query on them matches nothing): those two
    // filters are applied here, on the records of the caller's tenant.
    return records.filter(
      (record) =>
        (alias === undefined || record.alias === alias) &&
        (theirLabel === undefined || record.theirLabel === theirLabel),
    )
  }

  public async connection(principal: Principal, connectionId: string): Promise<ConnectionRecordJson> {
    return (await this.tenantOf(principal)).getConnection(connectionId)
  }

  public async receiveInvitationUrl(principal: Principal, body: ReceiveInvitationUrlDto): Promise<ReceivedInvitation> {
    return (await this.tenantOf(principal)).receiveInvitationUrl({
      invitationUrl: body.invitationUrl,
      ...toAgentReceiveOptions(body),
    })
  }

  public async credentials(principal: Principal, query: WalletCredentialsQuery): Promise<CredentialRecordJson[]> {
    return (await this.tenantOf(principal)).listCredentials(definedFields(query))
  }

  public async credential(principal: Principal, credentialRecordId: string): Promise<CredentialRecordJson> {
    return (await this.tenantOf(principal)).getCredential(credentialRecordId)
  }

  public async acceptOffer(principal: Principal, body: AcceptOfferDto): Promise<CredentialRecordJson> {
    const tenant = await this.tenantOf(principal)
    // Read first: another wallet's record id is a 404 here, before anything is attempted on it.
    await tenant.getCredential(body.credentialRecordId)
    return tenant.acceptCredentialOffer({
      credentialRecordId: body.credentialRecordId,
      autoAcceptCredential: body.autoAcceptCredential,
      credentialFormats: body.credentialFormats,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
  }

  public async proofs(principal: Principal, query: WalletProofsQuery): Promise<ProofRecordJson[]> {
    return (await this.tenantOf(principal)).listProofs(definedFields(query))
  }

  public async proof(principal: Principal, proofRecordId: string): Promise<ProofRecordJson> {
    return (await this.tenantOf(principal)).getProof(proofRecordId)
  }

  public async acceptProofRequest(principal: Principal, body: AcceptProofRequestDto): Promise<ProofRecordJson> {
    const tenant = await this.tenantOf(principal)
    await tenant.getProof(body.proofRecordId)
    return tenant.acceptProofRequest({
      proofRecordId: body.proofRecordId,
      filterByPresentationPreview: body.filterByPresentationPreview ?? false,
      filterByNonRevocationRequirements: body.filterByNonRevocationRequirements ?? false,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
  }

  /**
   * @throws NotImplementedError (501) for ledger methods and for importing an existing `did`
   * @throws InvalidInputError for another method, or `web` without `domain`
   */
  public async createDid(principal: Principal, body: CreateWalletDidDto): Promise<CreatedDid> {
    const method = body.method.trim().toLowerCase()
    if (LEDGER_DID_METHODS.includes(method)) {
      throw new NotImplementedError(`DID method ${method} needs the ledger support, which is not available yet`)
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
    return (await this.tenantOf(principal)).listDids()
  }

  public async sendBasicMessage(
    principal: Principal,
    connectionId: string,
    content: string,
  ): Promise<BasicMessageRecordJson> {
    const tenant = await this.tenantOf(principal)
    await tenant.getConnection(connectionId)
    return tenant.sendBasicMessage(connectionId, { content })
  }

  public async basicMessages(principal: Principal, connectionId: string): Promise<BasicMessageRecordJson[]> {
    const tenant = await this.tenantOf(principal)
    // The connection is read first: another wallet's connection id is a 404, never an empty list.
    await tenant.getConnection(connectionId)
    return tenant.listBasicMessages(connectionId)
  }

  /**
   * The base agent acting as the caller's tenant.
   * @throws InvalidStateError (409) while no base wallet is configured
   * @throws NotFoundError when the caller has no wallet yet
   */
  private async tenantOf(principal: Principal): Promise<AgentClient> {
    const user = asUser(principal)
    const base = await this.base.client()
    const wallet = await this.wallets.findForUser(user.userId)
    if (!wallet) throw new NotFoundError(NO_WALLET)
    return base.forTenant(wallet.tenantId)
  }
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
