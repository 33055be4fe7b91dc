import { EventEmitter } from 'node:events'
import { entityTag } from './entity-tag'
import { readingUpload, sendRaw, type RawResponse, type UploadRequest } from './raw-body'

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

describe('sendRaw', () => {
  it('tags an answer caches may keep, and only that one', () => {
    const publicAnswer = aResponse()
    sendRaw(publicAnswer.res, 200, { 'Cache-Control': 'public, max-age=60' }, 'list')
    expect(publicAnswer.headers.ETag).toBe(entityTag('list'))
    expect(entityTag('list')).not.toBe(entityTag('list2'))

    const privateAnswer = aResponse()
    sendRaw(privateAnswer.res, 200, { 'Cache-Control': 'no-store' }, 'report')
    expect(privateAnswer.headers.ETag).toBeUndefined()
  })

  it("keeps the route's own tag (a tails file's hash)", () => {
    const answer = aResponse()
    sendRaw(answer.res, 200, { 'Cache-Control': 'public, immutable', ETag: '"hash"' }, Buffer.from('tails'))
    expect(answer.headers.ETag).toBe('"hash"')
  })
})
