import { JsonTransformer } from '@credo-ts/core'
import {
  DidCommMessageRecord,
  DidCommMessageRole,
  DidCommOfferCredentialV2Message,
  DidCommRequestPresentationV2Message,
} from '@credo-ts/didcomm'

import { expectSameShape } from '../../../test/helpers/same-shape'
import { rememberStoredMessages } from './stored-message-memo'

const parse = DidCommMessageRecord.prototype.getMessageInstance

function offer(comment: string): Record<string, unknown> {
  return {
    '@type': 'https://didcomm.org/issue-credential/2.0/offer-credential',
    '@id': 'a0c5a7b2-3f1e-4d6a-9b8c-7d6e5f4a3b2c',
    '~thread': { thid: 'thread-0001' },
    comment,
    credential_preview: {
      '@type': 'https://didcomm.org/issue-credential/2.0/credential-preview',
      attributes: [{ name: 'name', value: 'Ada' }],
    },
    formats: [{ attach_id: 'ld', format: 'aries/ld-proof-vc-detail@v1.0' }],
    'offers~attach': [
      {
        '@id': 'ld',
        'mime-type': 'application/json',
        data: { base64: Buffer.from(JSON.stringify({ credential: { issuer: 'did:example:1' } })).toString('base64') },
      },
    ],
  }
}

function request(): Record<string, unknown> {
  return {
    '@type': 'https://didcomm.org/present-proof/2.0/request-presentation',
    '@id': 'b1d6b8c3-4a2f-4e7b-8c9d-8e7f6a5b4c3d',
    will_confirm: true,
    formats: [{ attach_id: 'pe', format: 'dif/presentation-exchange/definitions@v1.0' }],
    'request_presentations~attach': [
      { '@id': 'pe', 'mime-type': 'application/json', data: { json: { presentation_definition: { id: 'x' } } } },
    ],
  }
}

const stored = (message: Record<string, unknown>) =>
  new DidCommMessageRecord({ role: DidCommMessageRole.Sender, associatedRecordId: 'r1', message: message as never })

describe('rememberStoredMessages', () => {
  afterEach(() => {
    DidCommMessageRecord.prototype.getMessageInstance = parse
  })

  it.each([
    ['a credential offer', () => stored(offer('first')), DidCommOfferCredentialV2Message],
    ['a presentation request', () => stored(request()), DidCommRequestPresentationV2Message],
  ] as const)('gives %s as parsing it does, a copy each time', (_name, record, messageClass) => {
    const expected = record().getMessageInstance(messageClass as never)
    rememberStoredMessages()
    const first = record().getMessageInstance(messageClass as never)
    const second = record().getMessageInstance(messageClass as never)
    for (const copy of [first, second]) {
      expectSameShape(copy, expected)
      expect(JsonTransformer.toJSON(copy)).toEqual(JsonTransformer.toJSON(expected))
    }
    expect(second).not.toBe(first)
  })

  it('parses a message with other JSON anew, and keeps nothing a caller changed', () => {
    rememberStoredMessages()
    const first = stored(offer('first')).getMessageInstance(DidCommOfferCredentialV2Message)
    first.comment = 'changed by a caller'
    expect(stored(offer('first')).getMessageInstance(DidCommOfferCredentialV2Message).comment).toBe('first')
    expect(stored(offer('second')).getMessageInstance(DidCommOfferCredentialV2Message).comment).toBe('second')
  })

  it('still refuses a class of another type and a message that does not validate, every time', () => {
    rememberStoredMessages()
    const record = stored(offer('first'))
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(() => record.getMessageInstance(DidCommRequestPresentationV2Message as never)).toThrow(
        'does not match type',
      )
      const invalid = stored({ ...offer('x'), 'offers~attach': 'not a list' })
      expect(() => invalid.getMessageInstance(DidCommOfferCredentialV2Message)).toThrow()
    }
  })
})
