import { agentEndpoint, restartDelayMs } from './process-runtime'

describe('agentEndpoint', () => {
  it.each([
    [undefined, 'http://127.0.0.1:9002'],
    ['https://agents.example.com', 'https://agents.example.com:9002'],
    ['https://agents.example.com:443/', 'https://agents.example.com'],
    ['http://agents.example.com:7000/didcomm', 'http://agents.example.com:7000/didcomm'],
  ])('base %s gives %s', (base, expected) => {
    expect(agentEndpoint(base, '127.0.0.1', 9002)).toBe(expected)
  })
})

describe('restartDelayMs', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [6, 32_000],
    [7, 60_000],
    [100, 60_000],
  ])('after %i crashes waits %i ms (doubling from 1 s, capped at 60 s)', (crashes, expected) => {
    expect(restartDelayMs(crashes, 1_000, 60_000)).toBe(expected)
  })
})
