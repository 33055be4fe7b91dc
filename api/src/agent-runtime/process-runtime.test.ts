import { agentEndpoint } from './process-runtime'

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
