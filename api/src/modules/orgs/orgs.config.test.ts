import { loadConfig } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { orgsConfig } from './orgs.config'

/** The quota moved here from infra/config.ts with its assertions (docs/decisions.md, "Quotas"). */
describe('orgsConfig (LIMIT_ORGS_PER_USER)', () => {
  const read = (env: Record<string, string>) => sectionOf(loadConfig(env, [orgsConfig]), orgsConfig)

  it('defaults to 10 organizations per user', () => {
    expect(read({})).toEqual({ orgsPerUser: 10 })
  })

  it('takes 0 as no limit', () => {
    expect(read({ LIMIT_ORGS_PER_USER: '0' })).toEqual({ orgsPerUser: 0 })
  })

  it('reports a bad value by name', () => {
    expect(() => loadConfig({ LIMIT_ORGS_PER_USER: '-1' }, [orgsConfig])).toThrow(/LIMIT_ORGS_PER_USER/)
  })
})
