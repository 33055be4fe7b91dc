import { CredoError, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'
import { DidCommProblemReportError, MessageSendingError } from '@credo-ts/didcomm'
import { InvalidInputError, NotImplementedError } from '@idplane/common'
import { BadRequestError } from 'routing-controllers'

import { toErrorBody } from './error-handler'

describe('toErrorBody', () => {
  const malformed = Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed' })
  it.each([
    ['Credo RecordNotFoundError', new RecordNotFoundError('x', { recordType: 'Connection' }), 404],
    ['Credo RecordDuplicateError', new RecordDuplicateError('x', { recordType: 'Connection' }), 409],
    ['malformed JSON', malformed, 400],
    ['invalid input', new InvalidInputError('bad', [{ field: 'a', message: 'b' }]), 400],
    ['not implemented', new NotImplementedError('Tenants are not implemented'), 501],
    ['routing-controllers 400', new BadRequestError('bad'), 400],
    [
      'a Credo state check',
      new CredoError('Proof record is in invalid state done. Valid states are: request-received.'),
      409,
    ],
    ['a protocol problem report', new DidCommProblemReportError('Invalid offer', { problemCode: 'abandoned' }), 409],
    [
      'an undeliverable message',
      new MessageSendingError('Message is undeliverable', { outboundMessageContext: undefined as never }),
      502,
    ],
    ['anything else', new Error('boom with secret'), 500],
    ['any other Credo error', new CredoError('boom with secret'), 500],
  ])('maps %s to %i', (_name, error, status) => {
    const result = toErrorBody(error)
    expect(result.statusCode).toBe(status)
    expect(JSON.stringify(result)).not.toContain('secret')
    expect(JSON.stringify(result)).not.toContain('at ')
  })

  it("answers a step in the wrong state with Credo's reason", () => {
    const reason = 'Credential record is in invalid state done. Valid states are: offer-received.'
    expect(toErrorBody(new CredoError(reason))).toEqual({ statusCode: 409, message: reason, error: 'Conflict' })
  })
})
