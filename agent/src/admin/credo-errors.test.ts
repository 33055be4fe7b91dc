import { CredoError, RecordNotFoundError } from '@credo-ts/core'
import { DidCommProblemReportError, MessageSendingError } from '@credo-ts/didcomm'
import {
  ConflictError,
  InvalidInputError,
  InvalidStateError,
  NotImplementedError,
  UpstreamError,
} from '@idplane/common'

import { AnonCredsError } from '../anoncreds'
import { asStepFailure, isFormatFailure, isStorageFailure, protocolStep, toCredoRefusal } from './credo-errors'

const stateError = new CredoError('Credential record is in invalid state done. Valid states are: offer-received.')
const notReady = new CredoError(
  'Connection record is not ready to be used. Expected response-sent, response-received or completed, found invalid state request-sent',
)
const problem = new DidCommProblemReportError('Invalid credential offer', { problemCode: 'issuance-abandoned' })
const undeliverable = new MessageSendingError('Message is undeliverable to connection', {
  outboundMessageContext: undefined as never,
})
const storage = new CredoError('Error saving record', {
  cause: Object.assign(new Error('bad json'), { code: '22P02' }),
})
const formatFailure = new CredoError('Could not find the required credentials for the presentation submission')
const formatNotOffered = new CredoError('No attachment found for service jsonld')
const receivedBefore = new CredoError(
  'An out of band record with invitation 0b3f1f8e-5d7c-4c3e-9a51-2f4c6d8e1a20 has already been received. Invitations should have a unique id.',
)

describe('toCredoRefusal', () => {
  it.each([
    ['a record state check', stateError, InvalidStateError],
    ['a connection that is not ready', notReady, InvalidStateError],
    ['a protocol problem report', problem, ConflictError],
    ['an invitation received before', receivedBefore, ConflictError],
    ['an undeliverable message', undeliverable, UpstreamError],
    ['a format the message does not carry (the caller named it)', formatNotOffered, InvalidInputError],
  ])('maps %s', (_name, error, type) => {
    const refusal = toCredoRefusal(error)
    expect(refusal).toBeInstanceOf(type)
    expect(refusal?.message).toContain(error.message)
  })

  it.each([
    ['any other Credo error', formatFailure],
    ['a plain error', new Error('boom')],
    ['a storage failure', storage],
  ])('leaves %s alone', (_name, error) => {
    expect(toCredoRefusal(error)).toBeUndefined()
  })
})

describe('protocol steps', () => {
  it("turns a format service's exception into the caller's 400 or 409 with what failed and why", () => {
    const input = asStepFailure(formatFailure, 'input', 'The proof request cannot be made')
    expect(input).toBeInstanceOf(InvalidInputError)
    expect((input as Error).message).toBe(
      'The proof request cannot be made: Could not find the required credentials for the presentation submission',
    )
    const state = asStepFailure(new TypeError('x is undefined'), 'state', 'The offer cannot be accepted')
    expect(state).toBeInstanceOf(ConflictError)
    expect((state as Error).message).toBe('The offer cannot be accepted: x is undefined')
  })

  it('keeps the refusals whose meaning is fixed, and passes on what the error handler maps by itself', () => {
    expect(asStepFailure(stateError, 'input', 'a')).toBeInstanceOf(InvalidStateError)
    expect(asStepFailure(undeliverable, 'state', 'a')).toBeInstanceOf(UpstreamError)
    for (const error of [
      new RecordNotFoundError('gone', { recordType: 'Proof' }),
      new NotImplementedError('no ledger'),
      storage,
    ]) {
      expect(asStepFailure(error, 'input', 'a')).toBe(error)
    }
  })

  it('recognises a storage failure by the SQLSTATE code anywhere in the cause chain', () => {
    expect(isStorageFailure(storage)).toBe(true)
    expect(isStorageFailure(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true)
    expect(isStorageFailure(formatFailure)).toBe(false)
    expect(isStorageFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false)
  })

  it('answers the step result when it succeeds, and the mapped error when it fails', async () => {
    await expect(protocolStep('input', 'a', async () => 7)).resolves.toBe(7)
    await expect(
      protocolStep('state', 'The answer cannot be sent', () => Promise.reject(formatFailure)),
    ).rejects.toBeInstanceOf(ConflictError)
  })

  it('cuts a very long reason', () => {
    const long = asStepFailure(new Error('x'.repeat(5000)), 'input', 'a') as Error
    expect(long.message.length).toBeLessThan(1100)
  })
})

describe('isFormatFailure', () => {
  it.each([
    ['a Credo format error', formatFailure, true],
    [
      'a TypeError inside a format service (issue 22 item 10)',
      new TypeError("Cannot read properties of undefined (reading 'startsWith')"),
      true,
    ],
    ['an AnonCreds refusal', new AnonCredsError('invalid', 'predicate not satisfied'), true],
    ['a record state check', stateError, false],
    ['a format the caller named that the offer does not carry (the exchange stays)', formatNotOffered, false],
    ['a missing record', new RecordNotFoundError('no record', { recordType: 'x' }), false],
    ['an undeliverable message', undeliverable, false],
    ['a storage failure', storage, false],
    ['a platform error', new InvalidInputError('bad', []), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isFormatFailure(error)).toBe(expected)
  })
})
