import { clientAddressOf, ipv6Groups } from './client-ip'

const requestFrom = (ip: string | undefined) =>
  ({ ip, socket: { remoteAddress: '10.9.9.9' } }) as Parameters<typeof clientAddressOf>[0]

describe('clientAddressOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:0db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('keys %s as %s', (ip, expected) => {
    expect(clientAddressOf(requestFrom(ip))).toBe(expected)
  })

  it('falls back to the socket address when express has no ip', () => {
    expect(clientAddressOf(requestFrom(undefined))).toBe('10.9.9.9')
  })
})

describe('ipv6Groups', () => {
  it('expands the :: shorthand to eight groups', () => {
    expect(ipv6Groups('2001:db8::ff00:42:8329')).toEqual(['2001', 'db8', '0', '0', '0', 'ff00', '42', '8329'])
  })
})
