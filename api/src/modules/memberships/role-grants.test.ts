import { ForbiddenError } from '@idplane/common'
import type { OrgRoleName } from './org-role.entity'
import { assertMayChangeRoles, assertMayGrant, removesLastOwner } from './role-grants'

describe('assertMayGrant', () => {
  const cases: [OrgRoleName[], OrgRoleName[], boolean][] = [
    [['owner'], ['owner', 'admin'], true],
    [['owner'], ['member'], true],
    [['admin'], ['issuer', 'verifier', 'member', 'holder', 'admin'], true],
    [['admin'], ['owner'], false],
    [['admin'], ['member', 'super_admin'], false],
    [['super_admin'], ['super_admin'], true],
    [['super_admin'], ['owner'], false],
    [['owner'], ['platform_admin'], false],
    [[], ['member'], true],
  ]

  it.each(cases)('caller %j granting %j is allowed: %s', (caller, granted, isAllowed) => {
    if (isAllowed) expect(() => assertMayGrant(caller, granted)).not.toThrow()
    else expect(() => assertMayGrant(caller, granted)).toThrow(ForbiddenError)
  })

  it('names the refused role', () => {
    expect(() => assertMayGrant(['admin'], ['owner', 'owner'])).toThrow('Only a holder of the owner role can grant it')
  })
})

describe('assertMayChangeRoles', () => {
  const cases: [OrgRoleName[], OrgRoleName[], OrgRoleName[], boolean][] = [
    [['admin'], ['member'], ['issuer', 'verifier'], true],
    [['admin'], ['member'], ['owner'], false],
    [['admin'], ['owner'], ['member'], false],
    [['admin'], ['owner', 'member'], ['owner', 'issuer'], true],
    [['owner'], ['owner'], ['member'], true],
    [['owner'], ['member'], ['owner'], true],
    [['owner'], ['super_admin'], ['member'], false],
  ]

  it.each(cases)('caller %j changing %j to %j is allowed: %s', (caller, current, next, isAllowed) => {
    if (isAllowed) expect(() => assertMayChangeRoles(caller, current, next)).not.toThrow()
    else expect(() => assertMayChangeRoles(caller, current, next)).toThrow(ForbiddenError)
  })
})

describe('removesLastOwner', () => {
  const cases: [OrgRoleName[], OrgRoleName[], number, boolean][] = [
    [['owner'], ['member'], 1, true],
    [['owner'], ['member'], 2, false],
    [['owner'], ['owner', 'member'], 1, false],
    [['admin'], ['member'], 1, false],
  ]

  it.each(cases)('%j -> %j with %i owner(s): %s', (current, next, owners, expected) => {
    expect(removesLastOwner(current, next, owners)).toBe(expected)
  })
})
