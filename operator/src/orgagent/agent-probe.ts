export interface ProbeResult {
  ok: boolean
  /** `HTTP 503`, `ECONNREFUSED`, ...: goes into the Ready condition's message. */
  detail: string
}

/** One GET of an agent's /agent; answers ok only for HTTP 200. */
export type AgentProbe = (url: string, timeoutMs: number) => Promise<ProbeResult>

export const httpAgentProbe: AgentProbe = async (url, timeoutMs) => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
    await response.body?.cancel()
    return { ok: response.status === 200, detail: `HTTP ${response.status}` }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
    const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined
    return { ok: false, detail: code ?? (cause instanceof Error ? cause.message : String(cause)) }
  }
}

/** The controller endpoint: OPERATOR_AGENT_URL_TEMPLATE with the agent's Service, namespace and admin port. */
export function agentUrl(
  template: string,
  values: { service: string; namespace: string; name: string; adminPort: number },
): string {
  return template
    .replaceAll('{service}', values.service)
    .replaceAll('{namespace}', values.namespace)
    .replaceAll('{name}', values.name)
    .replaceAll('{adminPort}', String(values.adminPort))
    .replace(/\/$/, '')
}
