import {
  type AgentContext,
  ClaimFormat,
  DidResolverService,
  findVerificationMethodByKeyType,
  JsonTransformer,
  W3cCredential,
  W3cJsonLdCredentialService,
} from '@credo-ts/core'
import { InvalidInputError } from '@idplane/common'

/** The only proof purpose Credo's issuer signs with; a holder refuses a credential whose purpose differs. */
const ISSUANCE_PROOF_PURPOSE = 'assertionMethod'

/**
 * The error's message, followed by what JSON-LD safe mode names in a cause (`details.event`: the term that did not
 * expand), which Credo's own message leaves out.
 */
export function signingFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    const event = (cause as { details?: { event?: { message?: unknown; details?: Record<string, unknown> } } }).details
      ?.event
    if (event && typeof event.message === 'string') {
      const subject = event.details?.property ?? event.details?.term ?? event.details?.type
      return `${message} ${event.message}${typeof subject === 'string' ? ` (${subject})` : ''}`
    }
    cause = cause.cause
  }
  return message
}

/**
 * Signs the offered credential once, as the issuer will when the holder's request comes, and throws that away:
 * an offer that cannot be signed (a term its @context does not define, a context not available offline, an
 * issuer DID whose key this wallet does not hold) is refused when it is made instead of leaving the exchange
 * stuck at the request (issue 10 item 5). Costs one signature (a few milliseconds).
 * @throws InvalidInputError naming why
 */
export async function assertOfferSignable(
  agentContext: AgentContext,
  offer: { credential: Record<string, unknown>; options: { proofType: string; proofPurpose: string } },
): Promise<void> {
  if (offer.options.proofPurpose !== ISSUANCE_PROOF_PURPOSE) {
    throw new InvalidInputError('Unsupported proof purpose', [
      {
        field: 'options.proofPurpose',
        message: `must be ${ISSUANCE_PROOF_PURPOSE} (the purpose issued credentials carry)`,
      },
    ])
  }
  let credential: W3cCredential
  try {
    credential = JsonTransformer.fromJSON(offer.credential, W3cCredential)
  } catch (error) {
    throw new InvalidInputError(`The credential is not a valid W3C credential: ${signingFailureReason(error)}`, [], {
      cause: error,
    })
  }
  const issuer = typeof credential.issuer === 'string' ? credential.issuer : credential.issuer.id
  const signer = agentContext.dependencyManager.resolve(W3cJsonLdCredentialService)
  let verificationMethod: string
  try {
    const didDocument = await agentContext.dependencyManager
      .resolve(DidResolverService)
      .resolveDidDocument(agentContext, issuer)
    const [keyType] = signer.getVerificationMethodTypesByProofType(offer.options.proofType)
    const method = keyType ? await findVerificationMethodByKeyType(keyType, didDocument) : null
    if (!method) throw new Error(`it has no verification method for ${offer.options.proofType}`)
    verificationMethod = method.id
  } catch (error) {
    throw new InvalidInputError(
      `The issuer ${issuer} cannot sign this credential: ${signingFailureReason(error)}`,
      [],
      {
        cause: error,
      },
    )
  }
  try {
    await signer.signCredential(agentContext, {
      format: ClaimFormat.LdpVc,
      credential,
      proofType: offer.options.proofType,
      verificationMethod,
    })
  } catch (error) {
    throw new InvalidInputError(`The credential cannot be signed: ${signingFailureReason(error)}`, [], { cause: error })
  }
}
