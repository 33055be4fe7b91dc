import { InvalidInputError } from '../errors'
import { checkDeliveryTarget, checkTargetUrl, type Resolver } from './delivery-target'

const resolvingTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses

function refusal(run: () => unknown): string | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as InvalidInputError).fields[0]?.message
  }
}

describe('checkTargetUrl', () => {
  it.each([
    ['http://127.0.0.1/hook', /private/],
    ['http://2130706433/hook', /private/],
    ['http://0x7f.1/hook', /private/],
    ['http://[::1]:8080/hook', /private/],
    ['http://[::ffff:127.0.0.1]/hook', /private/],
    ['http://169.254.169.254/latest/meta-data/', /private/],
    ['http://10.0.0.5/hook', /private/],
    ['http://localhost/hook', /private/],
    ['http://api.localhost/hook', /private/],
    ['http://metadata.google.internal/computeMetadata/v1/', /private/],
    ['https://user:pass@hooks.example.com/x', /credentials/],
    ['https://token@hooks.example.com/x', /credentials/],
    ['ftp://hooks.example.com/x', /http/],
    ['not a url', /http/],
  ])('refuses %s', (url, reason) => {
    expect(refusal(() => checkTargetUrl(url, { allowPrivateTargets: false }))).toMatch(reason)
  })

  it('accepts a public https URL', () => {
    expect(checkTargetUrl('https://hooks.example.com/idplane?x=1', { allowPrivateTargets: false }).hostname).toBe(
      'hooks.example.com',
    )
  })

  it('accepts private targets when the setting allows them, but never credentials in the URL', () => {
    expect(checkTargetUrl('http://127.0.0.1:9000/hook', { allowPrivateTargets: true }).port).toBe('9000')
    expect(refusal(() => checkTargetUrl('http://u:p@127.0.0.1/', { allowPrivateTargets: true }))).toMatch(/credentials/)
  })
})

describe('checkDeliveryTarget', () => {
  const options = (resolve: Resolver) => ({ allowPrivateTargets: false, resolve })

  it('returns the addresses a public name resolves to', async () => {
    const target = await checkDeliveryTarget('https://hooks.example.com/x', options(resolvingTo('93.184.216.34')))
    expect(target.addresses).toEqual(['93.184.216.34'])
    expect(target.url.hostname).toBe('hooks.example.com')
  })

  it.each([
    [['127.0.0.1']],
    [['93.184.216.34', '10.0.0.1']],
    [['::ffff:169.254.169.254']],
    [['2606:4700::6810:85e5', 'fe80::1']],
    [[]],
  ])('refuses a name that resolves to %j', async (addresses) => {
    await expect(
      checkDeliveryTarget('https://rebind.example.com/x', options(resolvingTo(...addresses))),
    ).rejects.toThrow(InvalidInputError)
  })

  it('refuses a literal private address without resolving it', async () => {
    const resolve = jest.fn(resolvingTo('93.184.216.34'))
    await expect(checkDeliveryTarget('http://[fd00::1]/x', options(resolve))).rejects.toThrow(InvalidInputError)
    expect(resolve).not.toHaveBeenCalled()
  })

  it('refuses a name that does not resolve', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })
    }
    await expect(checkDeliveryTarget('https://nowhere.example.com/', options(failing))).rejects.toThrow(
      InvalidInputError,
    )
  })

  it('lets private addresses through when the setting allows them', async () => {
    const target = await checkDeliveryTarget('http://hooks.internal.test/x', {
      allowPrivateTargets: true,
      resolve: resolvingTo('10.0.0.7'),
    })
    expect(target.addresses).toEqual(['10.0.0.7'])
  })
})
