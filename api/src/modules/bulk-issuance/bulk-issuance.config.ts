import type { ConfigSection } from '../../infra/config-section'

export interface BulkIssuanceConfig {
  /** BULK_MAX_FILE_BYTES: largest CSV file accepted (413 beyond it, checked while reading). */
  maxFileBytes: number
  /** BULK_MAX_ROWS: most data rows in one file (400 beyond it, checked while reading). */
  maxRows: number
  /** BULK_CONCURRENCY: row jobs one API process runs at once (each is one agent call and one transaction). */
  concurrency: number
}

/** @default 10 MiB: 10,000 rows of a dozen attributes are about 2 MB; the file is never held whole. */
export const DEFAULT_BULK_MAX_FILE_BYTES = 10 * 1024 * 1024
/** @default 10,000 rows: an upload validates in well under 3 s and executes in minutes. */
export const DEFAULT_BULK_MAX_ROWS = 10_000
/** @default 4: the agent signs one credential per job; more only queues work inside the agent. */
export const DEFAULT_BULK_CONCURRENCY = 4

export const bulkIssuanceConfig: ConfigSection<BulkIssuanceConfig> = {
  name: 'bulk-issuance',
  read: (env) => ({
    maxFileBytes: env.int('BULK_MAX_FILE_BYTES', DEFAULT_BULK_MAX_FILE_BYTES, { min: 1024, max: 1024 * 1024 * 1024 }),
    maxRows: env.int('BULK_MAX_ROWS', DEFAULT_BULK_MAX_ROWS, { min: 1, max: 1_000_000 }),
    concurrency: env.int('BULK_CONCURRENCY', DEFAULT_BULK_CONCURRENCY, { min: 1, max: 100 }),
  }),
}
