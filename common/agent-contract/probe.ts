import { AGENT_STATUS_PATH } from './admin-api'

export interface ProbeResult {
  ok: boolean
  /** `HTTP 503`, `ECONNREFUSED`, `TimeoutError`...: goes into failure reasons and the Ready condition. */
  detail: string
}

/** One GET of an agent's readiness route; the operator injects a stand-in in its tests. */
export type AgentProbe = (adminUrl: string, timeoutMs: number, apiKey?: string) => Promise<ProbeResult>

/**
 * One GET `<adminUrl>/agent` (the API's runtimes and health route, the operator's reconciler): ok only for HTTP
 * 200; anything else, or no answer within `timeoutMs`, is not ready, with why. With `apiKey` the agent must also
 * accept that key (401 otherwise): it is the agent we started, not another program on its port.
 */
export const probeAgent: AgentProbe = async (adminUrl, timeoutMs, apiKey) => {
  try {
    const response = await fetch(`${adminUrl.replace(/\/$/, '')}${AGENT_STATUS_PATH}`, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } }),
    })
    await response.body?.cancel().catch(() => undefined)
    return { ok: response.status === 200, detail: `HTTP ${response.status}` }
  } catch (error) {
    return { ok: false, detail: failureDetail(error) }
  }
}

/**
 * fetch wraps network errors in a TypeError whose cause carries the code (ECONNREFUSED, ENOTFOUND), node:http gives
 * the code on the error itself; a timeout is a DOMException named TimeoutError. Read by shape, not instanceof: the
 * errors may come from another realm.
 */
export function failureDetail(error: unknown): string {
  const { name, message, cause, code: ownCode } = fieldsOf(error)
  const code = fieldsOf(cause).code ?? ownCode
  if (typeof code === 'string') return code
  if (name === 'TimeoutError' || name === 'AbortError') return name
  const causeMessage = fieldsOf(cause).message
  if (typeof causeMessage === 'string') return causeMessage
  return typeof message === 'string' ? message : String(error)
}

function fieldsOf(value: unknown): { name?: unknown; message?: unknown; cause?: unknown; code?: unknown } {
  return typeof value === 'object' && value !== null ? value : {}
}
