import type { CreateTenantRequest, TenantResponse } from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

/** Tenants of the base wallet (cloud wallets); other operations act on one with `X-Tenant-Id`. */
export const TENANT_OPERATIONS = operationsByName({
  createTenant: defineOperation({
    name: 'createTenant',
    method: 'POST',
    path: '/tenants',
    message: 'Tenant created',
    body: shape<CreateTenantRequest>(),
    result: shape<TenantResponse>(),
    summary: 'Creates a tenant wallet',
  }),
  listTenants: defineOperation({
    name: 'listTenants',
    method: 'GET',
    path: '/tenants',
    result: shape<TenantResponse[]>(),
    summary: 'The tenants of the base wallet',
  }),
  getTenant: defineOperation({
    name: 'getTenant',
    method: 'GET',
    path: '/tenants/:tenantId',
    result: shape<TenantResponse>(),
    summary: 'One tenant',
    errors: { 404: 'no such tenant' },
  }),
  deleteTenant: defineOperation({
    name: 'deleteTenant',
    method: 'DELETE',
    path: '/tenants/:tenantId',
    message: 'Tenant deleted',
    result: shape<{ id: string }>(),
    summary: 'Removes the tenant with its records and keys',
    errors: { 404: 'no such tenant' },
  }),
})
