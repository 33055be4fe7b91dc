import { ipv6Groups, isPublicAddress } from './ip-address'

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0'],
    ['0.1.2.3'],
    ['10.0.0.1'],
    ['100.64.0.1'],
    ['127.0.0.1'],
    ['127.255.255.254'],
    ['169.254.169.254'],
    ['172.16.0.1'],
    ['172.31.255.255'],
    ['192.0.0.8'],
    ['192.0.2.1'],
    ['192.168.1.1'],
    ['198.18.0.1'],
    ['198.51.100.7'],
    ['203.0.113.9'],
    ['224.0.0.1'],
    ['239.255.255.250'],
    ['240.0.0.1'],
    ['255.255.255.255'],
    ['::'],
    ['::1'],
    ['fe80::1'],
    ['fc00::1'],
    ['fd12:3456::1'],
    ['ff02::1'],
    ['fec0::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['::ffff:169.254.169.254'],
    ['::ffff:10.1.2.3'],
    ['::127.0.0.1'],
    ['64:ff9b::10.0.0.1'],
    ['64:ff9b::a9fe:a9fe'],
    ['2002:7f00:1::1'],
    ['2002:a9fe:a9fe::'],
    ['100::1'],
    ['2001:db8::1'],
    ['3fff::1'],
    ['2001:10::1'],
    ['2001:2::1'],
    ['1::1'],
    ['4000::1'],
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['2606:4700::6810:85e5'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it('refuses what is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false)
    expect(isPublicAddress('')).toBe(false)
    expect(isPublicAddress('[example.com]')).toBe(false)
    expect(isPublicAddress('1.2.3')).toBe(false)
  })

  // Every IPv6 form that carries an IPv4 address, each written several ways: judged by the IPv4 address it carries.
  describe.each([
    // [form, loopback inside, private inside, public inside]
    ['IPv4-compatible ::/96', '::127.0.0.1', '::a00:1', '::8.8.8.8'],
    ['IPv4-mapped ::ffff:0:0/96', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:c0a8:101', '::ffff:808:808'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe', '::ffff:0:8.8.8.8'],
    ['NAT64 64:ff9b::/96', '64:ff9b::127.0.0.1', '64:ff9b::ac10:1', '64:ff9b::8.8.8.8'],
    ['6to4 2002::/16', '2002:7f00:1::', '2002:c0a8:101:1::1', '2002:808:808::1'],
    // Teredo: server 8.8.8.8 (0808:0808) and the client inverted (127.0.0.1 → 80ff:fffe, 10.0.0.1 → f5ff:fffe).
    ['Teredo 2001::/32', '2001:0:808:808:0:0:80ff:fffe', '2001:0:808:808::f5ff:fffe', '2001:0:808:808::f7f7:f7f7'],
  ])('%s', (_form, loopback, privateAddress, publicAddress) => {
    it.each([
      [loopback, false],
      [`[${loopback}]`, false],
      [`${loopback}%eth0`, false],
      [privateAddress, false],
      [`[${privateAddress}]`, false],
      [publicAddress, true],
      [`[${publicAddress}]`, true],
    ])('%s → public %s', (address, isPublic) => {
      expect(isPublicAddress(address)).toBe(isPublic)
    })
  })

  it('refuses a Teredo address whose server is private even when the client is public', () => {
    expect(isPublicAddress('2001:0:a00:1::f7f7:f7f7')).toBe(false)
  })

  it('refuses the whole local-use NAT64 prefix 64:ff9b:1::/48, wherever its IPv4 address sits', () => {
    expect(isPublicAddress('64:ff9b:1::808:808')).toBe(false)
    expect(isPublicAddress('64:ff9b:1:808:8:800::')).toBe(false)
  })

  it('judges a link-local address with a zone index by the address', () => {
    expect(isPublicAddress('fe80::1%eth0')).toBe(false)
    expect(isPublicAddress('fe80::1%25eth0')).toBe(false)
    expect(isPublicAddress('2606:4700::6810:85e5%1')).toBe(true)
  })
})

describe('ipv6Groups', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]],
    ['::1.2.3.4', [0, 0, 0, 0, 0, 0, 0x102, 0x304]],
    ['1:2:3:4:5:6:1.2.3.4', [1, 2, 3, 4, 5, 6, 0x102, 0x304]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])('%s', (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups)
  })
})
