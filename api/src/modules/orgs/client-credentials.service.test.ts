import { SECRET_MASK, generateSecret, maskSecret } from './client-credentials.service'

describe('client secrets', () => {
  it('masks a secret, keeping only its four-character hint', () => {
    expect(maskSecret('abcd')).toBe('••••••••abcd')
    expect(maskSecret('a-longer-hint-wxyz')).toBe(`${SECRET_MASK}wxyz`)
  })

  it('generates 32 random bytes as base64url, different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateSecret()))
    expect(secrets.size).toBe(50)
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    }
  })
})
