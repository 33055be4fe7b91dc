import { InvalidInputError } from '@idplane/common'
import { normalizeEndpoint } from './base-wallet.service'

describe('normalizeEndpoint', () => {
  it.each([
    ['http://127.0.0.1:8002', 'http://127.0.0.1:8002'],
    ['http://127.0.0.1:8002/', 'http://127.0.0.1:8002'],
    ['https://agent.example.com/admin/', 'https://agent.example.com/admin'],
    ['agent.example.com', 'https://agent.example.com'],
    [' agent.example.com:8443 ', 'https://agent.example.com:8443'],
  ])('reads %p as %p', (given, expected) => {
    expect(normalizeEndpoint(given)).toBe(expected)
  })

  it.each(['ftp://agent.example.com', 'http://user:pw@agent.example.com', 'http://agent.example.com/?x=1', 'http://'])(
    'refuses %p naming agentEndpoint',
    (given) => {
      expect(() => normalizeEndpoint(given)).toThrow(InvalidInputError)
    },
  )
})
