import { type AgentContext, DidsApi, JsonEncoder, JwsService, type Kms } from '@credo-ts/core'
import type { StatusListSignerJson } from '@idplane/common/agent-contract/openid4vc-api'
import { STATUS_LIST_JWT_TYPE } from '@idplane/common/token-status-list'

import { assertionMethodOf, issuanceChain } from './credential-issuance'

/**
 * Signs a status list token (draft-ietf-oauth-status-list 5.1) with the key a template's SD-JWT VCs are signed with:
 * a verifier running Credo 0.6.3 checks the token with the credential issuer's key (`@sd-jwt/sd-jwt-vc`
 * verifyStatus uses the credential's verifier), so it must be that key. The header names it as the credential's
 * does: `kid` (the DID URL) for a DID, `x5c` for the issuance certificate.
 * @throws InvalidStateError when there is no active issuance certificate or the DID has no assertion method
 */
export async function signStatusListToken(
  agentContext: AgentContext,
  signer: StatusListSignerJson,
  payload: Record<string, unknown>,
): Promise<string> {
  let publicJwk: Kms.PublicJwk
  let keyHeader: Record<string, unknown>
  if (signer.method === 'did') {
    const didUrl = await assertionMethodOf(agentContext, signer.did)
    publicJwk = (await agentContext.resolve(DidsApi).resolveVerificationMethodFromCreatedDidRecord(didUrl)).publicJwk
    keyHeader = { kid: didUrl }
  } else {
    const chain = await issuanceChain(agentContext, signer.certificateId)
    publicJwk = chain[0].publicJwk
    keyHeader = { x5c: chain.map((certificate) => certificate.toString('base64')) }
  }
  // Credo's compact JWS: the KMS signs, and an x5c header is checked against the signing key first.
  return agentContext.resolve(JwsService).createJwsCompact(agentContext, {
    keyId: publicJwk.keyId,
    payload: JsonEncoder.toBuffer(payload),
    protectedHeaderOptions: { alg: publicJwk.signatureAlgorithm, typ: STATUS_LIST_JWT_TYPE, ...keyHeader },
  })
}
