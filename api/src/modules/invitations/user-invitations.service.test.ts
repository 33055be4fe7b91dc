import { randomUUID } from 'node:crypto'
import { ForbiddenError, InvalidStateError, NotFoundError, silentLogger } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import { UserInvitationsService } from './user-invitations.service'
import { InMemoryDirectory, anInvitation, anOrganization, roleId } from './invitations.fakes'

describe('UserInvitationsService', () => {
  let directory: InMemoryDirectory
  let sut: UserInvitationsService
  const org = anOrganization()

  const asUser = (userId: string, email: string): Principal => ({ kind: 'user', userId, email, sessionId: 's' })

  beforeEach(() => {
    directory = new InMemoryDirectory()
    directory.organizations.push(org)
    sut = new UserInvitationsService(
      directory.repository(),
      directory.roles(),
      directory.membershipsRepository(),
      directory.usersRepository(),
      silentLogger,
    )
  })

  it('accepting grants the invited roles and records the status, matching the e-mail case-insensitively', async () => {
    const bob = directory.addUser('bob@example.com')
    const invitation = anInvitation(org, { orgRoleIds: [roleId('issuer'), roleId('verifier')] })
    directory.invitations.push(invitation)
    await sut.respond(asUser(bob.id, 'Bob@Example.COM'), invitation.id, 'accepted')
    expect(invitation.status).toBe('accepted')
    expect(directory.rolesOfSync(org.id, bob.id)).toEqual(['issuer', 'verifier'])
    expect(directory.transactions).toBe(1)
  })

  it('rejecting records the status and grants nothing', async () => {
    const bob = directory.addUser('bob@example.com')
    const invitation = anInvitation(org)
    directory.invitations.push(invitation)
    await sut.respond(asUser(bob.id, bob.email), invitation.id, 'rejected')
    expect(invitation.status).toBe('rejected')
    expect(directory.rolesOfSync(org.id, bob.id)).toEqual([])
  })

  it.each(['accepted', 'rejected'] as const)('refuses a second answer (%s) with InvalidStateError', async (status) => {
    const bob = directory.addUser('bob@example.com')
    const invitation = anInvitation(org, { status })
    directory.invitations.push(invitation)
    await expect(sut.respond(asUser(bob.id, bob.email), invitation.id, 'accepted')).rejects.toThrow(InvalidStateError)
    expect(directory.rolesOfSync(org.id, bob.id)).toEqual([])
  })

  it("answers NotFoundError for someone else's invitation", async () => {
    const eve = directory.addUser('eve@example.com')
    const invitation = anInvitation(org)
    directory.invitations.push(invitation)
    await expect(sut.respond(asUser(eve.id, eve.email), invitation.id, 'accepted')).rejects.toThrow(NotFoundError)
    expect(invitation.status).toBe('pending')
  })

  it('refuses an M2M client', async () => {
    const client: Principal = { kind: 'client', clientId: randomUUID(), orgId: org.id, sessionId: 's' }
    await expect(sut.respond(client, randomUUID(), 'accepted')).rejects.toThrow(ForbiddenError)
    await expect(sut.listMine(client, { pageNumber: 1, pageSize: 10 })).rejects.toThrow(ForbiddenError)
  })
})
