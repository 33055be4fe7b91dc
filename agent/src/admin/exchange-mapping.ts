import { DidCommAutoAcceptCredential, DidCommAutoAcceptProof } from '@credo-ts/didcomm'

import type { AutoAccept } from './dto/exchanges.dto'

const CREDENTIAL: Record<AutoAccept, DidCommAutoAcceptCredential> = {
  always: DidCommAutoAcceptCredential.Always,
  contentApproved: DidCommAutoAcceptCredential.ContentApproved,
  never: DidCommAutoAcceptCredential.Never,
}

const PROOF: Record<AutoAccept, DidCommAutoAcceptProof> = {
  always: DidCommAutoAcceptProof.Always,
  contentApproved: DidCommAutoAcceptProof.ContentApproved,
  never: DidCommAutoAcceptProof.Never,
}

/** Decision (spec silent on the default): exchanges started here run to completion when content matches. */
export function toAutoAcceptCredential(value: AutoAccept | undefined): DidCommAutoAcceptCredential {
  return CREDENTIAL[value ?? 'contentApproved']
}

export function toAutoAcceptProof(value: AutoAccept | undefined): DidCommAutoAcceptProof {
  return PROOF[value ?? 'contentApproved']
}
