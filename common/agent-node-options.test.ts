import { spawnSync } from 'node:child_process'

import { AGENT_NODE_OPTIONS } from './agent-node-options'

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
})
