import type { ConfigSection } from '../../infra/config-section'

export interface CredentialsConfig {
  /** OOB_BATCH_SIZE: most `credentialOffer` entries of one e-mail issuance request (spec: Limits). */
  oobBatchSize: number
}

/**
 * @default 50: each entry is one agent call and one mail inside one request; 50 finish well within a request
 * timeout on the 2-core machine, and a larger list is split by the client.
 */
export const DEFAULT_OOB_BATCH_SIZE = 50

export const credentialsConfig: ConfigSection<CredentialsConfig> = {
  name: 'credentials',
  read: (env) => ({ oobBatchSize: env.int('OOB_BATCH_SIZE', DEFAULT_OOB_BATCH_SIZE, { min: 1, max: 1000 }) }),
}
