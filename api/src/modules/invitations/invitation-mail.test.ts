import { buildInvitationMail, invitationLink } from './invitation-mail'

const ID = '0f6a3c1e-2b4d-4e8f-9a1b-3c5d7e9f1a2b'

describe('buildInvitationMail', () => {
  const base = {
    to: 'bob@example.com',
    invitationId: ID,
    orgName: 'Acme <Labs>',
    frontEndUrl: 'https://portal.example.com/',
    platformName: 'idplane',
  }

  it('names the organization and the inviter and carries the link', () => {
    const mail = buildInvitationMail({ ...base, inviter: 'Alice Doe (alice@example.com)' })
    expect(mail.to).toBe('bob@example.com')
    expect(mail.subject).toBe('Invitation to join Acme <Labs> on idplane')
    expect(mail.text).toContain('Alice Doe (alice@example.com) invited you to join the organization "Acme <Labs>"')
    expect(mail.text).toContain(`https://portal.example.com/invitations?invitationId=${ID}`)
    expect(mail.text).toContain('sign up first with this e-mail address (bob@example.com)')
  })

  it('escapes names in the html part', () => {
    const mail = buildInvitationMail({ ...base, inviter: '<script>' })
    expect(mail.html).toContain('Acme &lt;Labs&gt;')
    expect(mail.html).toContain('&lt;script&gt; invited you')
    expect(mail.html).not.toContain('<script>')
  })

  it('reads well without an inviter (an API client invited)', () => {
    expect(buildInvitationMail(base).text).toContain('You are invited to join the organization "Acme <Labs>"')
  })
})

describe('invitationLink', () => {
  it.each([
    ['https://a.example', `https://a.example/invitations?invitationId=${ID}`],
    ['https://a.example/app/', `https://a.example/app/invitations?invitationId=${ID}`],
  ])('%s -> %s', (base, expected) => {
    expect(invitationLink(base, ID)).toBe(expected)
  })
})
