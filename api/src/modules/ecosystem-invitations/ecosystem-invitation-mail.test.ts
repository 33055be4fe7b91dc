import { buildEcosystemInvitationMail, ecosystemInvitationLink } from './ecosystem-invitation-mail'

const input = {
  to: 'owner@example.test',
  ecosystemId: '8a4c1f7e-1b2c-4d3e-8f4a-5b6c7d8e9f00',
  ecosystemName: 'Health <Trust>',
  leadOrgName: 'Lead & Co',
  orgId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  orgName: 'Clinic',
  frontEndUrl: 'https://studio.example.test/',
  platformName: 'idplane',
}

describe('ecosystem invitation mail', () => {
  it('links to the front end with both ids', () => {
    expect(ecosystemInvitationLink(input.frontEndUrl, input.ecosystemId, input.orgId)).toBe(
      `https://studio.example.test/ecosystems/invitations?ecosystemId=${input.ecosystemId}&orgId=${input.orgId}`,
    )
  })

  it('names the ecosystem, the lead and the invited organization, and escapes them in HTML', () => {
    const mail = buildEcosystemInvitationMail(input)
    expect(mail.to).toBe('owner@example.test')
    expect(mail.subject).toBe('Invitation to join the ecosystem Health <Trust> on idplane')
    expect(mail.text).toContain('"Lead & Co" invited your organization "Clinic" to join the ecosystem "Health <Trust>"')
    expect(mail.html).toContain('Health &lt;Trust&gt;')
    expect(mail.html).toContain('Lead &amp; Co')
    expect(mail.html).not.toContain('<Trust>')
  })
})
