import type { ConfigSection } from '../../infra/config-section'

export interface ProofsConfig {
  /** PROOF_REQ_CONN_LIMIT: most connection ids in one version-2 proof request. */
  readonly proofRequestConnections: number
}

/** @default 10 connections per version-2 proof request. */
export const DEFAULT_PROOF_REQUEST_CONNECTIONS = 10

export const proofsConfig: ConfigSection<ProofsConfig> = {
  name: 'proofs',
  read: (env) => ({
    proofRequestConnections: env.int('PROOF_REQ_CONN_LIMIT', DEFAULT_PROOF_REQUEST_CONNECTIONS, { min: 1, max: 1000 }),
  }),
}
