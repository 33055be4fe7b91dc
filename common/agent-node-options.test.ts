import { spawnSync } from 'node:child_process'

import { AGENT_NODE_ARGUMENTS, AGENT_NODE_OPTIONS, AGENT_V8_OPTIONS } from './agent-node-options'

/** Runs `node <argv> -e <script>` with NODE_OPTIONS as given; its exit status, standard output and error. */
function runNode(argv: readonly string[], script: string, nodeOptions = '') {
  const { status, stdout, stderr } = spawnSync(process.execPath, [...argv, '-e', script], {
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
    encoding: 'utf8',
  })
  return { status, stdout: stdout.trim(), stderr }
}

describe('the agent processes’ Node options', () => {
  it('puts in NODE_OPTIONS (the pods) only options Node takes there', () => {
    for (const option of AGENT_NODE_OPTIONS)
      expect(process.allowedNodeEnvironmentFlags.has(option.split('=')[0])).toBe(true)
    const { status, stderr } = runNode([], '0', AGENT_NODE_OPTIONS.join(' '))
    expect(stderr).toBe('')
    expect(status).toBe(0)
  })

  it('keeps the options Node refuses in NODE_OPTIONS for the command line, where V8 takes them', () => {
    for (const option of AGENT_V8_OPTIONS) {
      expect(process.allowedNodeEnvironmentFlags.has(option)).toBe(false)
      expect(runNode([], '0', option).stderr).toMatch(/not allowed in NODE_OPTIONS/)
    }
    // Node stops at an option neither it nor V8 knows ("bad option"): these start a process that runs.
    const { status, stdout, stderr } = runNode(AGENT_NODE_ARGUMENTS, 'process.stdout.write("ran")')
    expect(stderr).toBe('')
    expect(status).toBe(0)
    expect(stdout).toBe('ran')
  })
})
