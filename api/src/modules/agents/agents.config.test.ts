import { loadConfig } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { agentsConfig } from './agents.config'

/** The quota moved here from infra/config.ts with its assertions (docs/decisions.md, "Quotas"). */
describe('agentsConfig (LIMIT_PROCESS_AGENTS)', () => {
  const read = (env: Record<string, string>) => sectionOf(loadConfig(env, [agentsConfig]), agentsConfig)

  it('defaults to 20 process agents', () => {
    expect(read({})).toEqual({ processAgents: 20 })
  })

  it('takes 0 as no limit', () => {
    expect(read({ LIMIT_PROCESS_AGENTS: '0' })).toEqual({ processAgents: 0 })
  })

  it('reports a bad value by name', () => {
    expect(() => loadConfig({ LIMIT_PROCESS_AGENTS: 'many' }, [agentsConfig])).toThrow(/LIMIT_PROCESS_AGENTS/)
  })
})
