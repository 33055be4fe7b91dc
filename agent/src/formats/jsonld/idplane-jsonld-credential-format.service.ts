import type { AgentContext } from '@credo-ts/core'
import {
  DidCommAttachment,
  DidCommAttachmentData,
  DidCommJsonLdCredentialFormatService,
  type DidCommCredentialFormatAcceptOfferOptions,
  type DidCommCredentialFormatAutoRespondRequestOptions,
  type DidCommCredentialFormatCreateReturn,
  type DidCommJsonLdCredentialFormat,
} from '@credo-ts/didcomm'
import { JsonEncoder } from '@credo-ts/core'

import { bindSubject, needsHolderBinding, requestMatchesOffer, type CredentialDetail } from './holder-binding'
import { holderDidFor } from './holder-did'

/**
 * Credo's JSON-LD credential format with holder binding (issue 10 item 5). Issuer: a request that only binds the
 * offered subject to the holder's DID (`credentialSubject.id`, as ACA-Py holders send) is answered under
 * `contentApproved` like an unchanged one; plain Credo leaves it waiting for an approval nobody gives. Holder:
 * `credentialFormats.jsonld.credentialSubjectId` on accept-offer binds the request the same way, and an offer whose
 * subject has no id is bound to the wallet's own did:key when the holder names none (issue 22 item 10: a credential
 * without a subject id cannot be presented).
 */
export class IdplaneJsonLdCredentialFormatService extends DidCommJsonLdCredentialFormatService {
  public override async acceptOffer(
    agentContext: AgentContext,
    options: DidCommCredentialFormatAcceptOfferOptions<DidCommJsonLdCredentialFormat>,
  ): Promise<DidCommCredentialFormatCreateReturn> {
    const offer = options.offerAttachment.getDataAsJson<CredentialDetail>()
    const subjectId =
      subjectIdOption(options.credentialFormats) ??
      (needsHolderBinding(offer) ? await holderDidFor(agentContext) : undefined)
    const created = await super.acceptOffer(agentContext, options)
    if (subjectId === undefined) return created
    const request = bindSubject(offer, subjectId)
    const attachment = new DidCommAttachment({
      id: created.attachment.id,
      mimeType: 'application/json',
      data: new DidCommAttachmentData({ base64: JsonEncoder.toBase64(request) }),
    })
    return { ...created, attachment }
  }

  public override async shouldAutoRespondToRequest(
    _agentContext: AgentContext,
    { offerAttachment, requestAttachment }: DidCommCredentialFormatAutoRespondRequestOptions,
  ): Promise<boolean> {
    return requestMatchesOffer(
      offerAttachment.getDataAsJson<CredentialDetail>(),
      requestAttachment.getDataAsJson<CredentialDetail>(),
    )
  }
}

function subjectIdOption(credentialFormats: unknown): string | undefined {
  if (typeof credentialFormats !== 'object' || credentialFormats === null) return undefined
  const jsonld = (credentialFormats as { jsonld?: unknown }).jsonld
  if (typeof jsonld !== 'object' || jsonld === null) return undefined
  const subjectId = (jsonld as { credentialSubjectId?: unknown }).credentialSubjectId
  return typeof subjectId === 'string' && subjectId.length > 0 ? subjectId : undefined
}
