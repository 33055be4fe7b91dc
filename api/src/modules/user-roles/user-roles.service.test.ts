import { randomUUID } from 'node:crypto'
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, silentLogger } from '@idplane/common'
import { UserRolesService } from './user-roles.service'
import { InMemoryDirectory, anOrganization, roleId } from '../invitations/invitations.fakes'

describe('UserRolesService', () => {
  let directory: InMemoryDirectory
  let sut: UserRolesService
  const org = anOrganization()
  const ownerId = randomUUID()
  const memberId = randomUUID()

  beforeEach(() => {
    directory = new InMemoryDirectory()
    directory.organizations.push(org)
    directory.setRoles(org.id, ownerId, ['owner'])
    directory.setRoles(org.id, memberId, ['member'])
    sut = new UserRolesService(
      directory.membershipsRepository(),
      directory.roles(),
      directory.orgsRepository(),
      silentLogger,
    )
  })

  it('replaces all of a member’s roles', async () => {
    await sut.replace(org.id, { userId: null, roles: ['admin'] }, memberId, [roleId('issuer'), roleId('verifier')])
    expect(directory.rolesOfSync(org.id, memberId)).toEqual(['issuer', 'verifier'])
  })

  it('answers NotFoundError for a user who is not a member', async () => {
    await expect(
      sut.replace(org.id, { userId: null, roles: ['owner'] }, randomUUID(), [roleId('member')]),
    ).rejects.toThrow(NotFoundError)
  })

  it('answers InvalidInputError for an unknown role id before anything else', async () => {
    await expect(sut.replace(org.id, { userId: null, roles: ['owner'] }, randomUUID(), [randomUUID()])).rejects.toThrow(
      InvalidInputError,
    )
  })

  it('refuses to take the owner role from the last owner', async () => {
    await expect(
      sut.replace(org.id, { userId: ownerId, roles: ['owner'] }, ownerId, [roleId('admin')]),
    ).rejects.toThrow(ConflictError)
    expect(directory.rolesOfSync(org.id, ownerId)).toEqual(['owner'])
  })

  it('lets an owner step down when another owner remains', async () => {
    directory.setRoles(org.id, memberId, ['owner'])
    await sut.replace(org.id, { userId: ownerId, roles: ['owner'] }, ownerId, [roleId('member')])
    expect(directory.rolesOfSync(org.id, ownerId)).toEqual(['member'])
  })

  it.each([
    ['granting owner', memberId, 'owner' as const],
    ['demoting an owner', ownerId, 'member' as const],
  ])('refuses an admin %s', async (_label, userId, role) => {
    await expect(sut.replace(org.id, { userId: null, roles: ['admin'] }, userId, [roleId(role)])).rejects.toThrow(
      ForbiddenError,
    )
  })
})
