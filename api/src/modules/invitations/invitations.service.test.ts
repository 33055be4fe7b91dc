import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidStateError,
  NotFoundError,
  RateLimitedError,
  silentLogger,
} from '@idplane/common'
import { InMemoryRateLimitStore } from '../../../../test/helpers/auth-fakes'
import { RateLimiter } from '../../infra/rate-limit/rate-limiter'
import { loadConfig } from '../../infra/config'
import { authConfig } from '../auth/auth.config'
import type { MailMessage } from '../../infra/mail/mailer'
import type { MailOutbox } from '../../infra/mail/mail-outbox'
import { InvitationsService } from './invitations.service'
import { InMemoryDirectory, anInvitation, anOrganization, fake, roleId } from './invitations.fakes'

const CONFIG = loadConfig(
  {
    DATA_DIR: '/tmp/idplane-invitations-unit',
    RATE_LIMIT_INVITATION_MAIL_MAX: '5',
    CLIENT_ALIASES: JSON.stringify([
      { alias: 'portal', name: 'Portal', url: 'https://portal.example' },
      { alias: 'admin', name: 'Admin', url: 'https://admin.example/' },
    ]),
  },
  [authConfig],
)

describe('InvitationsService', () => {
  let directory: InMemoryDirectory
  let mails: MailMessage[]
  let keys: string[]
  let sut: InvitationsService
  const org = anOrganization({ name: 'Acme Labs' })

  beforeEach(() => {
    directory = new InMemoryDirectory()
    directory.organizations.push(org)
    mails = []
    keys = []
    const outbox = fake<MailOutbox>({
      add: async (entries) => {
        for (const entry of entries) {
          mails.push(entry.message)
          keys.push(entry.idempotencyKey)
        }
      },
    })
    const rateLimiter = new RateLimiter(new InMemoryRateLimitStore(), silentLogger, { retentionSeconds: 3600 })
    sut = new InvitationsService(
      directory.repository(),
      directory.roles(),
      directory.membershipsRepository(),
      directory.orgsRepository(),
      directory.usersRepository(),
      outbox,
      CONFIG,
      silentLogger,
      rateLimiter,
    )
  })

  describe('invite', () => {
    it('invites an address listed twice once, with the union of its roles, and mails it once', async () => {
      const inviter = directory.addUser('alice@example.com')
      const result = await sut.invite(org.id, { userId: inviter.id, roles: ['admin'] }, [
        { email: 'Bob@Example.com', orgRoleId: [roleId('member')] },
        { email: 'bob@example.com ', orgRoleId: [roleId('issuer')] },
      ])
      expect(result).toEqual({ sent: ['bob@example.com'], skipped: [] })
      expect(directory.invitations).toHaveLength(1)
      expect(directory.invitations[0]?.orgRoleIds).toEqual([roleId('member'), roleId('issuer')])
      expect(directory.invitations[0]?.invitedBy).toBe(inviter.id)
      expect(mails).toHaveLength(1)
      expect(mails[0]?.to).toBe('bob@example.com')
      expect(mails[0]?.text).toContain('Alice Doe (alice@example.com) invited you to join the organization "Acme Labs"')
      expect(mails[0]?.text).toContain(
        `https://portal.example/invitations?invitationId=${directory.invitations[0]?.id}`,
      )
      // One mail per invitation, whatever retries or relays do: the outbox key names the invitation.
      expect(keys).toEqual([`invitation:${directory.invitations[0]?.id}`])
    })

    it('limits invitation mails per organization, counting each address, with 429 past the limit', async () => {
      const batch = (prefix: string, count: number) =>
        Array.from({ length: count }, (_, i) => ({ email: `${prefix}${i}@example.com`, orgRoleId: [roleId('member')] }))
      await sut.invite(org.id, { userId: null, roles: ['admin'] }, batch('a', 4))
      const refused = await sut
        .invite(org.id, { userId: null, roles: ['admin'] }, batch('b', 2))
        .catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(RateLimitedError)
      expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0)
      expect(mails).toHaveLength(4)
      expect(directory.invitations).toHaveLength(4)
      // Another organization has its own budget.
      const other = anOrganization({ name: 'Other' })
      directory.organizations.push(other)
      await expect(sut.invite(other.id, { userId: null, roles: ['admin'] }, batch('c', 5))).resolves.toBeDefined()
    })

    it('skips an address with a pending invitation to this organization, without a mail', async () => {
      directory.invitations.push(anInvitation(org, { email: 'bob@example.com' }))
      const result = await sut.invite(org.id, { userId: null, roles: ['admin'] }, [
        { email: 'bob@example.com', orgRoleId: [roleId('member')] },
        { email: 'carol@example.com', orgRoleId: [roleId('member')] },
      ])
      expect(result).toEqual({ sent: ['carol@example.com'], skipped: ['bob@example.com'] })
      expect(mails.map((mail) => mail.to)).toEqual(['carol@example.com'])
      expect(mails[0]?.text).toContain('You are invited to join')
    })

    it('invites again an address whose earlier invitation was answered', async () => {
      directory.invitations.push(anInvitation(org, { email: 'bob@example.com', status: 'rejected' }))
      const result = await sut.invite(org.id, { userId: null, roles: ['owner'] }, [
        { email: 'bob@example.com', orgRoleId: [roleId('member')] },
      ])
      expect(result.sent).toEqual(['bob@example.com'])
    })

    it('refuses the whole request with ConflictError when an address is a member, sending nothing', async () => {
      const member = directory.addUser('bob@example.com')
      directory.setRoles(org.id, member.id, ['member'])
      await expect(
        sut.invite(org.id, { userId: null, roles: ['admin'] }, [
          { email: 'carol@example.com', orgRoleId: [roleId('member')] },
          { email: 'BOB@example.com', orgRoleId: [roleId('issuer')] },
        ]),
      ).rejects.toThrow(ConflictError)
      expect(directory.invitations).toHaveLength(0)
      expect(mails).toHaveLength(0)
    })

    it.each([
      [['admin'] as const, 'owner' as const],
      [['admin'] as const, 'super_admin' as const],
      [['super_admin'] as const, 'owner' as const],
    ])('refuses a caller with %j granting %s before touching anything', async (roles, granted) => {
      await expect(
        sut.invite(org.id, { userId: null, roles: [...roles] }, [
          { email: 'b@example.com', orgRoleId: [roleId(granted)] },
        ]),
      ).rejects.toThrow(ForbiddenError)
      expect(directory.transactions).toBe(0)
      expect(mails).toHaveLength(0)
    })

    it('lets an owner grant the owner role', async () => {
      const result = await sut.invite(org.id, { userId: null, roles: ['owner'] }, [
        { email: 'b@example.com', orgRoleId: [roleId('owner')] },
      ])
      expect(result.sent).toEqual(['b@example.com'])
    })

    it('uses the chosen client alias for the link, case-insensitively, and refuses an unknown one', async () => {
      await sut.invite(
        org.id,
        { userId: null, roles: ['admin'] },
        [{ email: 'b@example.com', orgRoleId: [roleId('member')] }],
        'Admin',
      )
      expect(mails[0]?.text).toContain('https://admin.example/invitations?invitationId=')
      expect(mails[0]?.subject).toBe('Invitation to join Acme Labs on Admin')
      await expect(
        sut.invite(
          org.id,
          { userId: null, roles: ['admin'] },
          [{ email: 'c@example.com', orgRoleId: [roleId('member')] }],
          'nope',
        ),
      ).rejects.toThrow(InvalidInputError)
    })

    it('answers NotFoundError when the organization is gone', async () => {
      await expect(
        sut.invite('5e0c1f7e-8a44-4f4e-9d1e-0d5c7b9a1b2c', { userId: null, roles: ['admin'] }, [
          { email: 'b@example.com', orgRoleId: [roleId('member')] },
        ]),
      ).rejects.toThrow(NotFoundError)
    })
  })

  describe('remove', () => {
    it('removes a pending invitation', async () => {
      const invitation = anInvitation(org)
      directory.invitations.push(invitation)
      await sut.remove(org.id, invitation.id)
      expect(directory.invitations).toHaveLength(0)
    })

    it('refuses an answered invitation with InvalidStateError and keeps it', async () => {
      const invitation = anInvitation(org, { status: 'accepted' })
      directory.invitations.push(invitation)
      await expect(sut.remove(org.id, invitation.id)).rejects.toThrow(InvalidStateError)
      expect(directory.invitations).toHaveLength(1)
    })

    it('answers NotFoundError for an invitation of another organization', async () => {
      const invitation = anInvitation(anOrganization())
      directory.invitations.push(invitation)
      await expect(sut.remove(org.id, invitation.id)).rejects.toThrow(NotFoundError)
    })
  })
})
