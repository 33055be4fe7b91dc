import {
  type AnonCredsCredentialOffer,
  type AnonCredsCredentialRequest,
  AnonCredsCredentialMetadataKey,
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsIssuerService,
  AnonCredsIssuerServiceSymbol,
  AnonCredsRevocationRegistryState,
  dateToTimestamp,
  fetchRevocationStatusList,
  LegacyIndyDidCommCredentialFormatService,
} from '@credo-ts/anoncreds'
import { CredoError } from '@credo-ts/core'
import { DidCommCredentialFormatSpec } from '@credo-ts/didcomm'

import { encodeCredentialAttribute } from '../../anoncreds'
import { storedRevocationRegistry } from './stored-revocation-registry'

type Service = LegacyIndyDidCommCredentialFormatService
type AgentContextOf = Parameters<Service['createOffer']>[0]
type CreateOfferOptions = Parameters<Service['createOffer']>[1]
type AcceptProposalOptions = Parameters<Service['acceptProposal']>[1]
type AcceptRequestOptions = Parameters<Service['acceptRequest']>[1]
type ExchangeRecord = CreateOfferOptions['credentialExchangeRecord']
type RevocationTarget = { revocationRegistryDefinitionId?: string; revocationRegistryIndex?: number }

/** The `indy` credential attachment format (Aries RFC 0592). */
const INDY_CRED = 'hlindy/cred@v2.0'

/**
 * Credo's `indy` credential format (Issue Credential v1, and v2 offers in that format) with AnonCreds revocation, as
 * Credo's `anoncreds` format has it: an offer keeps the revocation registry and index it names in the exchange's
 * AnonCreds metadata and tags, and the credential is issued into that registry at that index (with `rev_reg_id`,
 * `rev_reg` and a witness). Credo's own `indy` service drops both and issues a credential that cannot be revoked.
 * An offer that names no registry issues as before.
 */
export class RevocableLegacyIndyCredentialFormatService extends LegacyIndyDidCommCredentialFormatService {
  public override async createOffer(agentContext: AgentContextOf, options: CreateOfferOptions) {
    const offer = await super.createOffer(agentContext, options)
    keepRevocationTarget(options.credentialExchangeRecord, options.credentialFormats.indy)
    return offer
  }

  public override async acceptProposal(agentContext: AgentContextOf, options: AcceptProposalOptions) {
    const offer = await super.acceptProposal(agentContext, options)
    keepRevocationTarget(options.credentialExchangeRecord, options.credentialFormats?.indy)
    return offer
  }

  /**
   * Issues into the registry at the index the offer kept (super's issuance otherwise): the registry must be this
   * agent's and active, and the credential carries the registry's status list of now.
   */
  public override async acceptRequest(agentContext: AgentContextOf, options: AcceptRequestOptions) {
    const { credentialExchangeRecord: record, attachmentId, offerAttachment, requestAttachment } = options
    const metadata = record.metadata.get(AnonCredsCredentialMetadataKey)
    const id = metadata?.revocationRegistryId
    if (!id || metadata?.credentialRevocationId === undefined) return super.acceptRequest(agentContext, options)
    const index = Number(metadata.credentialRevocationId)
    const attributes = record.credentialAttributes
    if (!attributes) throw new CredoError(`Credential exchange ${record.id} has no attribute values`)
    const credentialOffer = offerAttachment?.getDataAsJson<AnonCredsCredentialOffer>()
    if (!credentialOffer) throw new CredoError(`Credential exchange ${record.id} has no indy credential offer`)
    const credentialRequest = requestAttachment.getDataAsJson<AnonCredsCredentialRequest>()
    const registry = await storedRevocationRegistry(agentContext, id)
    if (registry.privateRecord.state !== AnonCredsRevocationRegistryState.Active)
      throw new CredoAnonCredsError(`Revocation registry ${id} is ${registry.privateRecord.state}, not active`)
    const { revocationStatusList } = await fetchRevocationStatusList(agentContext, id, dateToTimestamp(new Date()))
    const issuer = agentContext.dependencyManager.resolve<AnonCredsIssuerService>(AnonCredsIssuerServiceSymbol)
    const { credential, credentialRevocationId } = await issuer.createCredential(agentContext, {
      credentialOffer,
      credentialRequest,
      credentialValues: Object.fromEntries(
        attributes.map(({ name, value }) => [name, { raw: value, encoded: encodeCredentialAttribute(value) }]),
      ),
      revocationRegistryDefinitionId: id,
      revocationRegistryIndex: index,
      revocationStatusList,
    })
    record.metadata.add(AnonCredsCredentialMetadataKey, { revocationRegistryId: id, credentialRevocationId })
    record.setTags({ anonCredsRevocationRegistryId: id, anonCredsCredentialRevocationId: credentialRevocationId })
    const format = new DidCommCredentialFormatSpec({ attachmentId, format: INDY_CRED })
    return { format, attachment: this.getFormatData(credential, format.attachmentId) }
  }
}

/** The offer's registry and index, where Credo's `anoncreds` format keeps them (and acceptRequest reads them). */
function keepRevocationTarget(record: ExchangeRecord, target: RevocationTarget | undefined): void {
  const { revocationRegistryDefinitionId: id, revocationRegistryIndex: index } = target ?? {}
  if (id === undefined && index === undefined) return
  if (!id || index === undefined)
    throw new CredoError('A revocable offer names both revocationRegistryDefinitionId and revocationRegistryIndex')
  record.metadata.add(AnonCredsCredentialMetadataKey, {
    revocationRegistryId: id,
    credentialRevocationId: String(index),
  })
  record.setTags({ anonCredsRevocationRegistryId: id, anonCredsCredentialRevocationId: String(index) })
}
