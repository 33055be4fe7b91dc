/**
 * One GET /agent: 200 is ready, anything else (or no answer within the timeout) is not, with why. With
 * `apiKey` the agent must also accept that key (401 otherwise): it is the agent we started, not another program.
 */
export async function probeAgent(
  adminUrl: string,
  timeoutMs: number,
  apiKey?: string,
): Promise<{ ok: boolean; detail: string }> {
  try {
    const response = await fetch(`${adminUrl}/agent`, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } }),
    })
    await response.body?.cancel().catch(() => undefined)
    return { ok: response.status === 200, detail: `HTTP ${response.status}` }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    return { ok: false, detail: cause?.code ?? (error as Error).name }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}
