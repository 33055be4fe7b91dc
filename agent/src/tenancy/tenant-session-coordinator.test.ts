import { contextIdForTenant, tenantIdOfContext } from './tenant-session-coordinator'

describe('tenant context ids', () => {
  it('prefix the tenant id with tenant- and read it back; other contexts are the base wallet', () => {
    expect(contextIdForTenant('0b8e')).toBe('tenant-0b8e')
    expect(tenantIdOfContext('tenant-0b8e')).toBe('0b8e')
    expect(tenantIdOfContext('default')).toBeUndefined()
  })
})
