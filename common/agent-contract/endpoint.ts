/**
 * The endpoint rule: an agent's DIDComm endpoint (AGENT_ENDPOINT) and the public base it may be derived from
 * (the API's AGENT_PUBLIC_ENDPOINT_BASE, an OrgAgent's spec.publicEndpointBase) are http or https URLs (checked by
 * each program's config with EnvReader.url and these protocols); the endpoint is the base with the agent's inbound
 * port, unless the base names a port of its own.
 */
export const AGENT_ENDPOINT_PROTOCOLS = ['http', 'https'] as const

/** `scheme://authority:port` at the start of the text: an explicit port, also the scheme's default one. */
const EXPLICIT_PORT = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:\d+/i

/**
 * AGENT_ENDPOINT from a public base: the base with the inbound port, or the base as it is when it names a port
 * (URL drops a default port such as ":443", so the text itself is looked at). No trailing slash.
 * @throws TypeError for a base that is not a URL
 */
export function endpointFromBase(base: string, inboundPort: number): string {
  const url = new URL(base)
  if (!EXPLICIT_PORT.test(base)) url.port = String(inboundPort)
  return url.toString().replace(/\/$/, '')
}
