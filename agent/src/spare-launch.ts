import { rmSync } from 'node:fs'
import path from 'node:path'
import { PGDATA_DIR_NAME } from '@idplane/common/pglite-template'
import {
  AGENT_SPARE_DIR_ENV,
  AGENT_SPARE_ENV,
  SPARE_LAUNCH_MAX_BYTES,
  parseSpareLaunchLine,
} from '@idplane/common/agent-contract/spare'

/** What a spare knows before its launch (common/agent-contract/spare.ts). */
export interface SpareSettings {
  /** Where it copies the PGlite template ahead of need: `<AGENT_SPARE_DIR>/<pid>/pgdata`. */
  stagingPgdata?: string
}

/** The spare's settings when this process was started as one, else undefined. */
export function spareSettings(env: Record<string, string | undefined>, pid = process.pid): SpareSettings | undefined {
  if (env[AGENT_SPARE_ENV] !== '1') return undefined
  const spareDir = env[AGENT_SPARE_DIR_ENV]
  return spareDir ? { stagingPgdata: path.join(path.resolve(spareDir), String(pid), PGDATA_DIR_NAME) } : {}
}

/** Removes the spare's staging folder when the process ends before its copy was moved. */
export function removeStagingOnExit(settings: SpareSettings): void {
  const staging = settings.stagingPgdata
  if (!staging) return
  process.once('exit', () => rmSync(path.dirname(staging), { recursive: true, force: true }))
}

/**
 * Reads the launch line from `input` (the supervisor's pipe) and leaves the stream paused after it, so that its end,
 * watched from then on by the agent, is not missed. Resolves to undefined when the input ends first: the API is
 * gone.
 * @throws Error when the line is malformed or longer than SPARE_LAUNCH_MAX_BYTES
 */
export function readLaunch(input: NodeJS.ReadableStream): Promise<Record<string, string> | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (outcome: () => void) => {
      input.off('data', onData)
      input.off('end', onEnd)
      input.off('error', onEnd)
      input.pause()
      outcome()
    }
    const onData = (chunk: Buffer | string) => {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      const newline = data.indexOf(0x0a)
      chunks.push(newline === -1 ? data : data.subarray(0, newline))
      size += newline === -1 ? data.length : newline
      if (size > SPARE_LAUNCH_MAX_BYTES) {
        finish(() => reject(new Error(`The launch line is longer than ${SPARE_LAUNCH_MAX_BYTES} bytes`)))
      } else if (newline !== -1) {
        const line = Buffer.concat(chunks).toString('utf8')
        finish(() => {
          try {
            resolve(parseSpareLaunchLine(line))
          } catch (error) {
            reject(error as Error)
          }
        })
      }
    }
    const onEnd = () => finish(() => resolve(undefined))
    input.on('data', onData)
    input.once('end', onEnd)
    input.once('error', onEnd)
    input.resume()
  })
}
