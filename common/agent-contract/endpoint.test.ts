import { endpointFromBase } from './endpoint'

describe('endpointFromBase', () => {
  it.each([
    ['https://agents.example.com', 'https://agents.example.com:9002'],
    ['https://agents.example.com/', 'https://agents.example.com:9002'],
    ['http://agents.example.com:8080', 'http://agents.example.com:8080'],
    // A default port written out is still the base's own choice, though URL drops it.
    ['https://agents.example.com:443', 'https://agents.example.com'],
    ['https://agents.example.com/didcomm', 'https://agents.example.com:9002/didcomm'],
  ])('%s gives %s', (base, expected) => {
    expect(endpointFromBase(base, 9002)).toBe(expected)
  })

  it('throws for a base that is not a URL', () => {
    expect(() => endpointFromBase('not a url', 9002)).toThrow('Invalid URL')
  })
})
