import { EventEmitter } from 'node:events'
import { readingUpload, type RawResponse, type UploadRequest } from './raw-body'

/** A response that records its headers and runs its `finish` listeners when told. */
function aResponse() {
  const finished = new EventEmitter()
  const headers: Record<string, string> = {}
  const res: RawResponse = {
    status: () => res,
    set: (field, value) => {
      headers[field] = value
      return res
    },
    send: () => res,
    on: (event, listener) => finished.on(event, listener),
  }
  return { res, headers, finish: () => finished.emit('finish') }
}

describe('readingUpload', () => {
  it('closes the connection of a refused upload whose body was not read to its end', async () => {
    const destroy = jest.fn()
    const req = { complete: false, socket: { destroy } } as unknown as UploadRequest
    const { res, headers, finish } = aResponse()
    await expect(readingUpload(req, res, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(headers.Connection).toBe('close')
    finish()
    expect(destroy).toHaveBeenCalledTimes(1)
  })

  it('does not throw when the client hung up before the answer was written (no socket left)', async () => {
    const req = { complete: false, socket: null } as unknown as UploadRequest
    const { res, finish } = aResponse()
    await expect(readingUpload(req, res, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(finish).not.toThrow()
  })

  it('leaves a connection alone when the body was read', async () => {
    const destroy = jest.fn()
    const req = { complete: true, socket: { destroy } } as unknown as UploadRequest
    const { res, headers, finish } = aResponse()
    await expect(readingUpload(req, res, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    finish()
    expect(headers.Connection).toBeUndefined()
    expect(destroy).not.toHaveBeenCalled()
  })
})
