import { injectable } from 'inversify'
import type {
  AcceptAuthorizationRequestRequest,
  AcceptCredentialOfferRequest,
  AuthorizationRequestSummaryJson,
  AuthorizationResponseJson,
  CredentialOfferSummaryJson,
  HeldCredentialJson,
  TrustAnchorJson,
  TrustAnchorRequest,
} from '@idplane/common/agent-contract/openid4vc-api'
import { OpenId4VcAgentClient } from '../../agent-client/openid4vc-agent-client'
import type { Principal } from '../../infra/auth/token.service'
import { WalletAccess } from '../cloud-wallet/wallet-access'

/**
 * The cloud wallet as an OpenID4VC holder (issue 29 item 5): the base wallet's holder operations, acting only as the
 * caller's tenant (WalletAccess), so another wallet's credential and request ids are unknown (404). The agent keeps
 * the credentials, the kept requests and the trust anchors in the tenant's context; the platform keeps no copy
 * (nothing here has DIDComm's events to keep one current).
 */
@injectable()
export class WalletOpenId4VcService {
  public constructor(private readonly access: WalletAccess) {}

  public async resolveOffer(principal: Principal, offerUri: string): Promise<CredentialOfferSummaryJson> {
    return (await this.holderOf(principal)).resolveCredentialOffer({ offerUri })
  }

  public async acceptOffer(principal: Principal, body: AcceptCredentialOfferRequest): Promise<HeldCredentialJson[]> {
    return (await this.holderOf(principal)).acceptCredentialOffer(body)
  }

  public async listCredentials(principal: Principal): Promise<HeldCredentialJson[]> {
    return (await this.holderOf(principal)).listHeldCredentials()
  }

  public async deleteCredential(principal: Principal, credentialId: string): Promise<{ id: string }> {
    return (await this.holderOf(principal)).deleteHeldCredential(credentialId)
  }

  public async resolveRequest(principal: Principal, requestUri: string): Promise<AuthorizationRequestSummaryJson> {
    return (await this.holderOf(principal)).resolveAuthorizationRequest({ requestUri })
  }

  public async acceptRequest(
    principal: Principal,
    body: AcceptAuthorizationRequestRequest,
  ): Promise<AuthorizationResponseJson> {
    return (await this.holderOf(principal)).acceptAuthorizationRequest(body)
  }

  public async addTrustAnchor(principal: Principal, body: TrustAnchorRequest): Promise<TrustAnchorJson> {
    return (await this.holderOf(principal)).addTrustAnchor(body)
  }

  public async listTrustAnchors(principal: Principal): Promise<TrustAnchorJson[]> {
    return (await this.holderOf(principal)).listTrustAnchors()
  }

  public async removeTrustAnchor(principal: Principal, trustAnchorId: string): Promise<{ id: string }> {
    return (await this.holderOf(principal)).removeTrustAnchor(trustAnchorId)
  }

  /**
   * @throws ForbiddenError for an organization's client, NotFoundError before the caller has a wallet,
   * InvalidStateError (409) while no base wallet is configured
   */
  private async holderOf(principal: Principal): Promise<OpenId4VcAgentClient> {
    return new OpenId4VcAgentClient(await this.access.tenantOf(principal))
  }
}
