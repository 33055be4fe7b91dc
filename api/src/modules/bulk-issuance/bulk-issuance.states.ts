/** `uploaded`: rows stored, nothing issued; `running`: rows queued; `completed`: no row left queued. */
export const BULK_REQUEST_STATUSES = ['uploaded', 'running', 'completed'] as const
export type BulkRequestStatus = (typeof BULK_REQUEST_STATUSES)[number]

/**
 * `invalid`: refused at upload, never issued; `pending`: valid, not executed yet; `queued`: a job is on the
 * queue; `sent`: the offer exists and its mail is in the outbox; `failed`: the job gave up (retried when the
 * request is executed again).
 */
export const BULK_ROW_STATUSES = ['invalid', 'pending', 'queued', 'sent', 'failed'] as const
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number]
