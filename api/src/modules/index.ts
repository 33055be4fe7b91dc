import type { ApiModule } from '../infra/api-module'
import { healthModule } from './health/health.module'
import { rolesModule } from './roles/roles.module'
import { authModule } from './auth/auth.module'
import { orgsModule } from './orgs/orgs.module'
import { invitationsModule } from './invitations/invitations.module'
import { agentsModule } from './agents/agents.module'

/** Every resource module of the API, in the order their routes are registered. */
export const API_MODULES: ApiModule[] = [
  healthModule,
  rolesModule,
  authModule,
  orgsModule,
  invitationsModule,
  agentsModule,
]
