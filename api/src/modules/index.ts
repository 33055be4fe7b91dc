import type { ApiModule } from '../infra/api-module'
import { healthModule } from './health/health.module'
import { rolesModule } from './roles/roles.module'

/** Every resource module of the API, in the order their routes are registered. */
export const API_MODULES: ApiModule[] = [healthModule, rolesModule]
