import { PassThrough } from 'node:stream'
import path from 'node:path'
import { spareLaunchLine, SPARE_LAUNCH_MAX_BYTES } from '@idplane/common/agent-contract/spare'
import { readLaunch, spareSettings } from './spare-launch'

describe('a spare agent before its launch', () => {
  it('is a spare only with AGENT_SPARE=1, and stages its copy under AGENT_SPARE_DIR by its pid', () => {
    expect(spareSettings({})).toBeUndefined()
    expect(spareSettings({ AGENT_SPARE: 'true' })).toBeUndefined()
    expect(spareSettings({ AGENT_SPARE: '1' })).toEqual({})
    expect(spareSettings({ AGENT_SPARE: '1', AGENT_SPARE_DIR: '/data/agents/.spares' }, 4242)).toEqual({
      stagingPgdata: path.join('/data/agents/.spares', '4242', 'pgdata'),
    })
  })

  it('reads the launch line, even in pieces, and leaves the rest of its input paused for the end watch', async () => {
    const input = new PassThrough()
    const launched = readLaunch(input)
    const line = spareLaunchLine({ AGENT_LABEL: 'Acme wallet', AGENT_API_KEY: 'k'.repeat(32) })
    input.write(line.slice(0, 10))
    input.write(`${line.slice(10)}later bytes`)
    await expect(launched).resolves.toEqual({ AGENT_LABEL: 'Acme wallet', AGENT_API_KEY: 'k'.repeat(32) })
    expect(input.isPaused()).toBe(true)
    expect(input.listenerCount('data')).toBe(0)
    // The agent's own watch, attached later, still sees the end.
    const ended = new Promise((resolve) => input.once('end', resolve))
    input.end()
    input.resume()
    await expect(ended).resolves.toBeUndefined()
  })

  it('resolves to nothing when the input ends before a line (its API is gone)', async () => {
    const input = new PassThrough()
    const launched = readLaunch(input)
    input.end('{"AGENT_LABEL":"half')
    await expect(launched).resolves.toBeUndefined()
  })

  it('refuses a line that is not an object of strings, and one past the size limit', async () => {
    for (const bad of ['not json\n', '["a"]\n', '{"AGENT_ADMIN_PORT":8020}\n', 'null\n']) {
      const input = new PassThrough()
      const launched = readLaunch(input)
      input.write(bad)
      await expect(launched).rejects.toThrow()
    }
    // JSON.parse's own message would quote the line, keys and all.
    const secret = new PassThrough()
    const refused = readLaunch(secret)
    secret.write('{"AGENT_WALLET_KEY": s3cret-wallet-key}\n')
    await expect(refused).rejects.toThrow(/^The launch line is not valid JSON$/)
    const input = new PassThrough()
    const launched = readLaunch(input)
    input.write(Buffer.alloc(SPARE_LAUNCH_MAX_BYTES + 1, 0x61))
    await expect(launched).rejects.toThrow(/longer than/)
  })
})
