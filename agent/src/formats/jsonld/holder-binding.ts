import { utils } from '@credo-ts/core'

/** A JSON-LD credential detail as the issue-credential attachments carry it: `{ credential, options }`. */
export interface CredentialDetail {
  credential: Record<string, unknown>
  options?: Record<string, unknown>
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Whether a holder's request asks for exactly what was offered, allowing the one change a standard holder makes:
 * binding a subject the offer left without `id` to its own DID (ACA-Py holders do it; so does ours with
 * `credentialSubjectId`). Anything else that differs still needs the issuer's approval.
 */
export function requestMatchesOffer(offer: CredentialDetail, request: CredentialDetail): boolean {
  if (utils.areObjectsEqual(offer, request)) return true
  const offered = offer.credential.credentialSubject
  const requested = request.credential.credentialSubject
  if (!isObject(offered) || !isObject(requested) || offered.id !== undefined) return false
  if (typeof requested.id !== 'string' || requested.id.length === 0) return false
  const { id: _boundTo, ...requestedRest } = requested
  return utils.areObjectsEqual(offer, {
    ...request,
    credential: { ...request.credential, credentialSubject: requestedRest },
  })
}

/** Whether an offer leaves its one subject without an id: the holder binds it to its own DID. */
export function needsHolderBinding(offer: CredentialDetail): boolean {
  const subject = offer.credential.credentialSubject
  return isObject(subject) && subject.id === undefined
}

/**
 * The holder's request for an offer, its subject bound to `subjectId` when given.
 * @throws Error when the offer's subject already names someone else
 */
export function bindSubject(offer: CredentialDetail, subjectId: string | undefined): CredentialDetail {
  if (subjectId === undefined) return offer
  const subject = offer.credential.credentialSubject
  if (!isObject(subject)) throw new Error('Only a credential with one credentialSubject can be bound to a DID')
  if (subject.id !== undefined && subject.id !== subjectId) {
    throw new Error('The offered credentialSubject already has another id')
  }
  return { ...offer, credential: { ...offer.credential, credentialSubject: { ...subject, id: subjectId } } }
}
