import { object, recordOf, string } from '../../../infra/http/data-schema'

/** `GET /health/live` data. */
export const LIVENESS_SCHEMA = object<{ status: string }>(undefined, { status: string })

/** `GET /health/ready` data: each dependency (database, queue) up or down; a capability up or `degraded: <why>`. */
export const READINESS_SCHEMA = recordOf(string)
