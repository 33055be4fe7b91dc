import { toAgentInvitation, type CreateConnectionInvitationDto } from './create-invitation.dto'
import { toAgentReceiveOptions } from './receive-invitation.dto'

describe('the defaults the platform gives the agent', () => {
  it('lets the agent accept requests for its own invitations unless autoAcceptConnection is false', () => {
    expect(toAgentInvitation({})).toEqual({ autoAcceptConnection: true })
    expect(toAgentInvitation({ autoAcceptConnection: false }).autoAcceptConnection).toBe(false)
  })

  it('passes every spec field through and keeps the isShortenUrl extension to itself', () => {
    const body: CreateConnectionInvitationDto = {
      label: 'Acme',
      alias: 'a',
      imageUrl: 'https://acme.example/logo.png',
      goalCode: 'issue-vc',
      goal: 'Issue',
      handshake: true,
      handshakeProtocols: ['https://didcomm.org/didexchange/1.1'],
      multiUseInvitation: true,
      autoAcceptConnection: true,
      IsReuseConnection: false,
      recipientKey: 'did:key:z6Mk',
      invitationDid: 'did:peer:2',
      routing: { endpoints: ['https://acme.example'], recipientKey: 'key' },
      appendedAttachments: [{ data: { json: {} } }],
      messages: [{ '@type': 'x' }],
      isShortenUrl: true,
    }
    const { isShortenUrl: _shorten, ...spec } = body
    expect(toAgentInvitation(body)).toEqual(spec)
  })

  it('receives and connects at once unless told otherwise; no reuse by default', () => {
    expect(toAgentReceiveOptions({})).toMatchObject({
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
      reuseConnection: false,
    })
    expect(
      toAgentReceiveOptions({ autoAcceptConnection: false, autoAcceptInvitation: false, reuseConnection: true }),
    ).toMatchObject({ autoAcceptConnection: false, autoAcceptInvitation: false, reuseConnection: true })
  })
})
