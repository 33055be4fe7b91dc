import { silentLogger } from '@idplane/common'

import { announceReady } from './ready-announcement'

const answer = (status: number) => Promise.resolve({ status, body: '' })

describe('announceReady', () => {
  it('POSTs to <event URL>/ready with the event token', async () => {
    const post = jest.fn(() => answer(200))
    await expect(
      announceReady({ eventUrl: 'http://api/v1/internal/agent-events', token: 't0k', post }, silentLogger),
    ).resolves.toBe(true)
    expect(post).toHaveBeenCalledWith(
      'http://api/v1/internal/agent-events/ready',
      '{}',
      { 'content-type': 'application/json', authorization: 'Bearer t0k' },
      expect.any(Number),
    )
  })

  it('tries again after a network error or a 5xx, then leaves it to the polling', async () => {
    const post = jest
      .fn()
      .mockRejectedValueOnce(new Error('ECONNREFUSED'))
      .mockImplementationOnce(() => answer(503))
      .mockImplementationOnce(() => answer(204))
    const wait = jest.fn(() => Promise.resolve())
    await expect(announceReady({ eventUrl: 'http://api/e', token: 't', post, wait }, silentLogger)).resolves.toBe(true)
    expect(post).toHaveBeenCalledTimes(3)
    expect(wait.mock.calls).toEqual([[250], [500]])

    const failing = jest.fn(() => Promise.reject(new Error('ECONNREFUSED')))
    await expect(
      announceReady({ eventUrl: 'http://api/e', token: 't', post: failing, wait }, silentLogger),
    ).resolves.toBe(false)
    expect(failing).toHaveBeenCalledTimes(4)
  })

  it('does not ask again after a refusal (401, 404)', async () => {
    const post = jest.fn(() => answer(404))
    await expect(announceReady({ eventUrl: 'http://api/e', token: 't', post }, silentLogger)).resolves.toBe(false)
    expect(post).toHaveBeenCalledTimes(1)
  })
})
