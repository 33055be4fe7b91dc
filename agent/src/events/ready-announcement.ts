import type { Logger } from '@idplane/common'
import { agentReadyUrl } from '@idplane/common/agent-contract/events'

import { httpPost } from '../transport/http-request'

/** @default 4 attempts: the platform polls GET /agent anyway, so an announcement that does not get through is dropped. */
const ATTEMPTS = 4
/** @default 250 ms before the second attempt, doubled for each further one (about 2 s in all). */
const FIRST_RETRY_MS = 250
/** @default 5 s per attempt. */
const TIMEOUT_MS = 5_000

export interface ReadyAnnouncementOptions {
  /** The agent's event URL (AGENT_EVENT_URL); the announcement goes to `<eventUrl>/ready`. */
  eventUrl: string
  token: string
  post?: typeof httpPost
  wait?: (ms: number) => Promise<void>
}

/**
 * Tells the platform that GET /agent answers 200 now (common/agent-contract/events.ts, AGENT_READY_SUFFIX), so that
 * provisioning goes on without waiting for the platform's next poll. Best effort and never thrown: an announcement
 * that fails is retried a few times over about two seconds, then left to the platform's polling.
 * @returns whether the platform took it (2xx)
 */
export async function announceReady(options: ReadyAnnouncementOptions, logger: Logger): Promise<boolean> {
  const post = options.post ?? httpPost
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()))
  const url = agentReadyUrl(options.eventUrl)
  let last = ''
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await wait(FIRST_RETRY_MS * 2 ** (attempt - 2))
    try {
      const { status } = await post(
        url,
        '{}',
        { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        TIMEOUT_MS,
      )
      if (status >= 200 && status < 300) return true
      last = `HTTP ${status}`
      // The platform answered and refused (no such route, unknown token): asking again changes nothing.
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) break
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
  }
  logger.info('Readiness not announced; the platform finds the agent by polling', { reason: last })
  return false
}
