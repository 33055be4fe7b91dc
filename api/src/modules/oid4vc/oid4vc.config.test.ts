import { loadConfig } from '../../infra/config'
import { areOidcControllersServed, oid4vcConfig } from './oid4vc.config'

/** The flag is this section's alone: the platform config (infra/config.ts) no longer reads it. */
describe('oid4vcConfig (HIDE_EXPERIMENTAL_OIDC_CONTROLLERS)', () => {
  it('hides the experimental routes by default and serves them only when the flag is false', () => {
    expect(areOidcControllersServed(loadConfig({}, [oid4vcConfig]))).toBe(false)
    expect(areOidcControllersServed(loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'true' }, [oid4vcConfig]))).toBe(
      false,
    )
    expect(areOidcControllersServed(loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false' }, [oid4vcConfig]))).toBe(
      true,
    )
  })

  it('is read by the section only: without it a bad value is not the platform config’s concern', () => {
    expect(() => loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'maybe' })).not.toThrow()
    expect(() => loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'maybe' }, [oid4vcConfig])).toThrow(
      /HIDE_EXPERIMENTAL_OIDC_CONTROLLERS/,
    )
  })
})
