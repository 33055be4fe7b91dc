/** `creating`: the key-generation job is queued or running; then `created` (with its ledger id) or `failed`. */
export const CRED_DEF_STATUSES = ['creating', 'created', 'failed'] as const
export type CredDefStatus = (typeof CRED_DEF_STATUSES)[number]

/** The one status under which the schema and tag may be created again (the same record, next execution). */
export const RECREATABLE_CRED_DEF_STATUS = 'failed' satisfies CredDefStatus
