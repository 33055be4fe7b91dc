import { object, recordOf, string } from '../../../infra/http/data-schema'

/** `GET /health/live` data. */
export const LIVENESS_SCHEMA = object<{ status: string }>(undefined, { status: string })

/** `GET /health/ready` data: each dependency (database, queue) up or down. */
export const READINESS_SCHEMA = recordOf(string)
