import type { TENANT_OPERATIONS } from '@idplane/common/agent-contract/operations/tenants'

import type { AdminController } from './admin-routes'
import type { AgentRuntime } from './agent-runtime'
import { CreateTenantDto, toTenantResponse } from './dto/tenants.dto'

/** Tenants of the base wallet (cloud wallets), through the base agent's TenantsService. */
export function tenantsController(runtime: AgentRuntime): AdminController<typeof TENANT_OPERATIONS> {
  return {
    createTenant: {
      body: CreateTenantDto,
      handle: async ({ body }) =>
        toTenantResponse(
          await runtime.tenants.create({ label: body.label, connectionImageUrl: body.connectionImageUrl }),
        ),
    },
    listTenants: { handle: async () => (await runtime.tenants.list()).map(toTenantResponse) },
    getTenant: { handle: async ({ params }) => toTenantResponse(await runtime.tenants.get(params.tenantId)) },
    /** Removes the tenant with its records and keys. */
    deleteTenant: {
      handle: async ({ params }) => {
        await runtime.tenants.delete(params.tenantId)
        return { id: params.tenantId }
      },
    },
  }
}
