import { UpstreamError } from '@idplane/common'
import type { DidMethod } from './org-agent.entity'

/** @default 30 s for the agent to create a DID. */
const DID_TIMEOUT_MS = 30_000

export interface CreateDidInput {
  method: DidMethod
  domain?: string
  seed?: string
}

/**
 * Creates a DID through the agent's admin API (agent/src/admin/dids.controller.ts: POST /dids,
 * `{ method, domain?, seed? }` → `{ data: { did } }`), authenticated with the agent's API key.
 * @throws UpstreamError when the agent does not answer 2xx with a DID
 */
export async function createDidThroughAgent(
  controllerEndpoint: string,
  apiKey: string,
  input: CreateDidInput,
): Promise<string> {
  let response: Response
  try {
    response = await fetch(`${controllerEndpoint}/dids`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(DID_TIMEOUT_MS),
    })
  } catch (error) {
    throw new UpstreamError(`The agent did not answer the DID request: ${(error as Error).message}`, { cause: error })
  }
  const body: unknown = await response.json().catch(() => undefined)
  const data = (body as { data?: { did?: unknown } } | undefined)?.data
  if (!response.ok || typeof data?.did !== 'string') {
    const message = (body as { message?: unknown } | undefined)?.message
    throw new UpstreamError(
      `The agent refused to create the DID (HTTP ${response.status}${typeof message === 'string' ? `: ${message}` : ''})`,
    )
  }
  return data.did
}
