import { WalletKeyCipher } from './wallet-key-cipher'

describe('WalletKeyCipher', () => {
  const salt = Buffer.alloc(16, 7)
  const sut = WalletKeyCipher.derive('correct horse battery staple', salt)

  it('opens what it sealed for the same row', () => {
    const sealed = sut.seal(Buffer.from('secret-jwk'), 'ctx/key-1')
    expect(sealed).not.toContain('secret-jwk')
    expect(sut.open(sealed, 'ctx/key-1').toString()).toBe('secret-jwk')
  })

  it('refuses a sealed value moved to another row', () => {
    const sealed = sut.seal(Buffer.from('secret-jwk'), 'ctx/key-1')
    expect(() => sut.open(sealed, 'ctx/key-2')).toThrow()
  })

  it('refuses another wallet key', () => {
    const sealed = sut.seal(Buffer.from('secret-jwk'), 'ctx/key-1')
    expect(() => WalletKeyCipher.derive('wrong key', salt).open(sealed, 'ctx/key-1')).toThrow()
  })
})
