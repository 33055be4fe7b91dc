import { spawnSync } from 'node:child_process'

import { AGENT_NODE_OPTIONS, AGENT_V8_OPTIONS } from './agent-node-options'

/** A loop hot enough for TurboFan, run with `--trace-opt`: what V8 printed of its optimizations. */
function optimizationsOf(options: readonly string[]): string {
  const hot =
    'function f(a){let s=0;for(const x of a)s+=x*2;return s};const a=[...Array(1000).keys()];let t=0;for(let k=0;k<100000;k++)t+=f(a);'
  const { status, stdout, stderr } = spawnSync(process.execPath, [...options, '--trace-opt', '-e', hot], {
    encoding: 'utf8',
  })
  expect(stderr).toBe('')
  expect(status).toBe(0)
  return stdout
}

describe('the agent processes’ Node options', () => {
  it('are all options Node takes in NODE_OPTIONS, where pods carry them', () => {
    for (const option of AGENT_NODE_OPTIONS)
      expect(process.allowedNodeEnvironmentFlags.has(option.split('=')[0])).toBe(true)
    const { status, stderr } = spawnSync(process.execPath, ['-e', '0'], {
      env: { ...process.env, NODE_OPTIONS: AGENT_NODE_OPTIONS.join(' ') },
      encoding: 'utf8',
    })
    expect(stderr).toBe('')
    expect(status).toBe(0)
  })

  it('stop V8 at Maglev from the command line, where a hot loop otherwise reaches TurboFan', () => {
    expect(optimizationsOf([])).toMatch(/target TURBOFAN/)
    const stopped = optimizationsOf(AGENT_V8_OPTIONS)
    expect(stopped).toMatch(/target MAGLEV/)
    expect(stopped).not.toMatch(/TURBOFAN/)
  })
})
