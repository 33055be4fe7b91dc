import type { ConfigSection } from '../../infra/config-section'

export interface TailsFilesConfig {
  /** TAILS_FILE_MAX_BYTES: the largest tails file the platform stores (an upload beyond it is 413). */
  maxBytes: number
}

/** A registry of 2^20 credentials, the largest the agents make: 2 + (2 * 2^20 + 1) * 128 bytes. */
export const LARGEST_TAILS_FILE = 2 + (2 * 2 ** 20 + 1) * 128
/** @default 32 MiB: registries up to 131,071 credentials (10,000 take 2.56 MB). */
export const DEFAULT_TAILS_FILE_MAX_BYTES = 32 * 1024 * 1024

export const tailsFilesConfig: ConfigSection<TailsFilesConfig> = {
  name: 'tails-files',
  read: (env) => ({
    maxBytes: env.int('TAILS_FILE_MAX_BYTES', DEFAULT_TAILS_FILE_MAX_BYTES, { min: 1024, max: LARGEST_TAILS_FILE }),
  }),
}
