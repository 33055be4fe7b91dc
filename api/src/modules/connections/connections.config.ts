import type { ConfigSection } from '../../infra/config-section'

export interface ConnectionsConfig {
  /**
   * OOB_BATCH_SIZE: most recipients of one mailed out-of-band request (e-mail credential offers, OOB proof
   * requests by e-mail). Out-of-band invitations are the connection protocol's (RFC 0434), so the setting is
   * this module's; credentials and proofs read it.
   */
  readonly oobBatchSize: number
}

/** @default 50 recipients per mailed out-of-band request. */
export const DEFAULT_OOB_BATCH_SIZE = 50

export const connectionsConfig: ConfigSection<ConnectionsConfig> = {
  name: 'connections',
  read: (env) => ({
    oobBatchSize: env.int('OOB_BATCH_SIZE', DEFAULT_OOB_BATCH_SIZE, { min: 1, max: 10_000 }),
  }),
}
