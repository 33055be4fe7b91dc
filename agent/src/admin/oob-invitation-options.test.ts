import { DidKey, JsonEncoder, Kms, TypedArrayEncoder } from '@credo-ts/core'
import {
  DidCommAttachment,
  DidCommBasicMessage,
  DidCommHandshakeProtocol,
  DidCommMessageHandlerRegistry,
} from '@credo-ts/didcomm'
import { InvalidInputError } from '@idplane/common'

import { CreateInvitationDto } from './dto/connections.dto'
import {
  type InvitationDefaults,
  parseEd25519PublicKey,
  toDidCommAttachments,
  toDidCommMessages,
  toInvitationOptions,
} from './oob-invitation-options'

const BASE58_KEY = 'H3C2AVvLMv6gmMNam3uVAjZpfkcJCwDwnZn6z3wXmqPV'
const OTHER_BASE58_KEY = '8HH5gYEeNc3z7PYXmd54d4x6qAfCNrqQqEB3nS7Zfu7K'
const DID_KEY = new DidKey(
  Kms.PublicJwk.fromPublicKey({ kty: 'OKP', crv: 'Ed25519', publicKey: TypedArrayEncoder.fromBase58(BASE58_KEY) }),
).did
const X25519_DID_KEY = 'did:key:z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc'
const BASIC_MESSAGE_TYPE = 'https://didcomm.org/basicmessage/1.0/message'

function registry(): InvitationDefaults['messageClasses'] {
  const sut = new DidCommMessageHandlerRegistry()
  sut.registerMessageHandler({ supportedMessages: [DidCommBasicMessage], handle: async () => undefined })
  return sut
}

const defaults: InvitationDefaults = {
  label: 'issuer',
  imageUrl: 'https://example.org/logo.png',
  messageClasses: registry(),
}

function aBasicMessage(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@type': BASIC_MESSAGE_TYPE,
    '@id': '6a3a8c2e-5f0e-4bd5-9d39-0b1c2e3f4a5b',
    content: 'Welcome',
    sent_time: '2026-01-02T03:04:05.000Z',
    ...overrides,
  }
}

function body(fields: Partial<CreateInvitationDto>): CreateInvitationDto {
  return Object.assign(new CreateInvitationDto(), fields)
}

function fieldsOf(action: () => unknown): string[] {
  try {
    action()
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.map((field) => field.field)
    throw error
  }
  throw new Error('expected an InvalidInputError')
}

describe('toInvitationOptions', () => {
  it('applies the defaults of the spec and the scope to an empty body', () => {
    const { config, service } = toInvitationOptions(body({}), defaults)
    expect(config).toMatchObject({
      label: 'issuer',
      imageUrl: 'https://example.org/logo.png',
      handshake: true,
      multiUseInvitation: false,
      autoAcceptConnection: false,
    })
    expect(config.messages).toBeUndefined()
    expect(config.appendedAttachments).toBeUndefined()
    expect(service).toEqual({ kind: 'fresh' })
  })

  it('passes the plain fields through', () => {
    const fields = {
      label: 'x',
      alias: 'a',
      goal: 'g',
      goalCode: 'gc',
      multiUseInvitation: true,
      handshakeProtocols: [DidCommHandshakeProtocol.DidExchange],
    }
    const { config } = toInvitationOptions(body(fields), defaults)
    expect(config).toMatchObject(fields)
  })

  it.each([
    ['an unknown handshake protocol', { handshakeProtocols: ['https://example.org/hs/1.0'] }, ['handshakeProtocols']],
    ['handshake false without messages', { handshake: false }, ['handshake']],
    [
      'handshake false with handshake protocols',
      { handshake: false, handshakeProtocols: [DidCommHandshakeProtocol.DidExchange] },
      ['handshake', 'handshakeProtocols'],
    ],
    [
      'messages on a multi-use invitation',
      { messages: [aBasicMessage()], multiUseInvitation: true },
      ['multiUseInvitation'],
    ],
    ['invitationDid with recipientKey', { invitationDid: 'did:peer:2.x', recipientKey: BASE58_KEY }, ['invitationDid']],
    [
      'invitationDid with routing',
      { invitationDid: 'did:peer:2.x', routing: { endpoints: ['http://a'], recipientKey: BASE58_KEY } },
      ['invitationDid'],
    ],
    [
      'a recipientKey other than routing.recipientKey',
      { recipientKey: OTHER_BASE58_KEY, routing: { endpoints: ['http://a'], recipientKey: BASE58_KEY } },
      ['recipientKey'],
    ],
    [
      'a malformed routing key',
      { routing: { endpoints: ['http://a'], recipientKey: BASE58_KEY, routingKeys: ['x'] } },
      ['routing.routingKeys[0]'],
    ],
  ])('refuses %s with a 400 naming the fields', (_name, fields, expected) => {
    expect(fieldsOf(() => toInvitationOptions(body(fields as Partial<CreateInvitationDto>), defaults))).toEqual(
      expected,
    )
  })

  it('names a chosen key as the service, with the agent endpoints unless routing gives others', () => {
    const byKey = toInvitationOptions(body({ recipientKey: DID_KEY }), defaults).service
    expect(byKey).toMatchObject({ kind: 'key', routingKeys: [] })
    expect(byKey.kind === 'key' && byKey.recipientKey.fingerprint).toBe(DID_KEY.slice('did:key:'.length))
    expect(byKey.kind === 'key' && byKey.endpoints).toBeUndefined()

    const byRouting = toInvitationOptions(
      body({
        recipientKey: BASE58_KEY,
        routing: { endpoints: ['https://mediator.example'], recipientKey: DID_KEY, routingKeys: [OTHER_BASE58_KEY] },
      }),
      defaults,
    ).service
    expect(byRouting).toMatchObject({ kind: 'key', endpoints: ['https://mediator.example'] })
    expect(byRouting.kind === 'key' && byRouting.routingKeys.map((key) => key.fingerprint)).toEqual([
      parseEd25519PublicKey(OTHER_BASE58_KEY, 'k').fingerprint,
    ])
  })

  it('names the standing DID for IsReuseConnection and the given DID for invitationDid', () => {
    expect(toInvitationOptions(body({ IsReuseConnection: true }), defaults).service).toEqual({ kind: 'reusable' })
    expect(toInvitationOptions(body({ IsReuseConnection: false }), defaults).service).toEqual({ kind: 'fresh' })
    expect(
      toInvitationOptions(body({ invitationDid: 'did:web:example.org', IsReuseConnection: true }), defaults).service,
    ).toEqual({ kind: 'did', did: 'did:web:example.org' })
  })

  it('attaches messages and attachments', () => {
    const { config } = toInvitationOptions(
      body({
        handshake: false,
        messages: [aBasicMessage()],
        appendedAttachments: [{ 'mime-type': 'text/plain', data: { base64: 'aGk=' } }],
      }),
      defaults,
    )
    expect(config.messages?.[0]).toBeInstanceOf(DidCommBasicMessage)
    expect(config.appendedAttachments?.[0]).toBeInstanceOf(DidCommAttachment)
  })
})

describe('parseEd25519PublicKey', () => {
  it.each([
    ['base58', BASE58_KEY],
    ['did:key', DID_KEY],
  ])('reads a %s key', (_name, value) => {
    const key = parseEd25519PublicKey(value, 'recipientKey')
    expect(TypedArrayEncoder.toBase58(key.publicKey.publicKey)).toBe(BASE58_KEY)
  })

  it.each([
    ['an X25519 did:key', X25519_DID_KEY],
    ['a did:web', 'did:web:example.org'],
    ['base58 of 31 bytes', TypedArrayEncoder.toBase58(new Uint8Array(31).fill(7))],
    ['characters outside base58', '0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OI'],
    ['an empty string', ''],
  ])('refuses %s', (_name, value) => {
    expect(fieldsOf(() => parseEd25519PublicKey(value, 'recipientKey'))).toEqual(['recipientKey'])
  })
})

describe('toDidCommMessages', () => {
  it('builds the class registered for the @type', () => {
    const [message] = toDidCommMessages([aBasicMessage()], registry())
    expect(message).toBeInstanceOf(DidCommBasicMessage)
    expect((message as DidCommBasicMessage).content).toBe('Welcome')
    expect(message.toJSON()).toMatchObject({ '@type': BASIC_MESSAGE_TYPE, '@id': aBasicMessage()['@id'] })
  })

  it('accepts the legacy did:sov prefix', () => {
    const legacy = aBasicMessage({ '@type': 'did:sov:BzCbsNYhMrjHiqZDTUASHg;spec/basicmessage/1.0/message' })
    expect(toDidCommMessages([legacy], registry())[0]).toBeInstanceOf(DidCommBasicMessage)
  })

  it.each([
    ['no @type', aBasicMessage({ '@type': undefined }), ['messages[0].@type']],
    ['a malformed @type', aBasicMessage({ '@type': 'not a type' }), ['messages[0].@type']],
    [
      'a @type no handler takes',
      aBasicMessage({ '@type': 'https://didcomm.org/unknown/1.0/message' }),
      ['messages[0].@type'],
    ],
    ['a message its class rejects', aBasicMessage({ content: undefined }), ['messages[0].content']],
    ['a malformed @id', aBasicMessage({ '@id': 'has spaces in it' }), ['messages[0].id']],
    ['a parent thread', aBasicMessage({ '~thread': { pthid: 'x' } }), ['messages[0].~thread.pthid']],
  ])('refuses %s with a 400', (_name, json, expected) => {
    expect(fieldsOf(() => toDidCommMessages([json], registry()))).toEqual(expected)
  })
})

describe('toDidCommAttachments', () => {
  it.each([
    ['base64', { base64: JsonEncoder.toBase64({ a: 1 }) }],
    ['base64url', { base64: 'aGk_-w' }],
    ['json', { json: { a: 1 } }],
    ['links', { links: ['https://example.org/a.pdf'], sha256: 'a'.repeat(64) }],
  ])('takes %s data', (_name, data) => {
    const [attachment] = toDidCommAttachments([{ '@id': 'a1', 'mime-type': 'application/json', data }])
    expect(attachment).toBeInstanceOf(DidCommAttachment)
    expect(attachment.id).toBe('a1')
    expect(attachment.mimeType).toBe('application/json')
  })

  it('gives an attachment without @id one', () => {
    const [attachment] = toDidCommAttachments([{ data: { json: {} } }])
    expect(attachment.id).toEqual(expect.any(String))
  })

  it.each([
    ['no data', {}, ['appendedAttachments[0].data']],
    ['data without content', { data: { sha256: 'a'.repeat(64) } }, ['appendedAttachments[0].data']],
    ['data that is not base64', { data: { base64: 'not base64!' } }, ['appendedAttachments[0].data.base64']],
    ['a malformed mime type', { 'mime-type': 'nope', data: { json: {} } }, ['appendedAttachments[0].mimeType']],
    ['a @id that is not a string', { '@id': 7, data: { json: {} } }, ['appendedAttachments[0].@id']],
  ])('refuses %s with a 400', (_name, json, expected) => {
    expect(fieldsOf(() => toDidCommAttachments([json]))).toEqual(expected)
  })
})
