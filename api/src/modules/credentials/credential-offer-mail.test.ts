import { buildCredentialOfferMail } from './credential-offer-mail'

describe('buildCredentialOfferMail', () => {
  it('carries the link in both parts and a PNG QR code of it in the HTML', async () => {
    const mail = await buildCredentialOfferMail({
      to: 'holder@example.test',
      orgName: 'Acme <University>',
      invitationUrl: 'https://platform.example/s/abc123',
      credentialTypes: ['VerifiableCredential', 'UniversityDegree'],
    })
    expect(mail.to).toBe('holder@example.test')
    expect(mail.text).toContain('https://platform.example/s/abc123')
    expect(mail.text).toContain('UniversityDegree')
    expect(mail.html).toContain('href="https://platform.example/s/abc123"')
    expect(mail.html).toContain('Acme &lt;University&gt;')
    const png = /src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(mail.html ?? '')?.[1]
    expect(png).toBeDefined()
    // PNG signature
    expect(
      Buffer.from(png ?? '', 'base64')
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a')
  })
})
