import type { LookupFunction } from 'node:net'

import type { AgentDependencies } from '@credo-ts/core'
import { type DidCommOutOfBandInvitation, parseInvitationShortUrl } from '@credo-ts/didcomm'
import { IdplaneError, InvalidInputError, UpstreamError } from '@idplane/common'

import { boundedGet, HttpGetError, type HttpAnswer } from './http-get'
import type { OutboundTargetGuard } from './outbound-target-guard'

/** Redirects followed from an invitation URL, each to a checked target. */
export const INVITATION_MAX_REDIRECTS = 3
/** Largest answer read from an invitation URL (an invitation with attachments is a few kilobytes). */
export const INVITATION_MAX_BYTES = 256 * 1024
/** Longest wait for a whole invitation fetch, redirects included. */
export const INVITATION_FETCH_TIMEOUT_MS = 10_000

const ENCODED_INVITATION = /[?&](oob|c_i|d_m)=/

/**
 * The invitation at `invitationUrl`, parsed by Credo (an encoded `oob`/`c_i`/`d_m` URL, or a short URL answering
 * the invitation's JSON or redirecting to an encoded URL). A short URL is fetched with a GET whose every hop is
 * checked by `guard` (no private or loopback target, nor a redirect to one), at most INVITATION_MAX_REDIRECTS
 * redirects, INVITATION_MAX_BYTES and INVITATION_FETCH_TIMEOUT_MS.
 * @throws InvalidInputError naming `invitationUrl` for a refused target, a redirect to one, an answer too large, too
 *   slow or unreachable, or a 4xx answer; UpstreamError for a 5xx answer; Credo's error when what came back is no
 *   invitation
 */
export async function fetchInvitation(
  invitationUrl: string,
  guard: OutboundTargetGuard,
  dependencies: AgentDependencies,
): Promise<DidCommOutOfBandInvitation> {
  let refusal: IdplaneError | undefined
  const fetchChecked = async (url: string | URL | Request): Promise<Response> => {
    try {
      return await answered(await getChecked(String(url), guard))
    } catch (error) {
      refusal = error instanceof IdplaneError ? error : undefined
      // An answer, not a throw: Credo clears its 15 s abort timer only after its fetch returns, and a throw left the
      // timer holding the process that long. Credo reads no invitation from this answer and fails as it did on a throw.
      return new Response(null, { status: 502 })
    }
  }
  try {
    return await parseInvitationShortUrl(invitationUrl, { ...dependencies, fetch: fetchChecked as typeof fetch })
  } catch (error) {
    // Credo replaces a failed fetch by a generic "InvitationUrl is invalid": the reason is ours to tell.
    if (refusal) throw refusal
    throw error
  }
}

/**
 * The link's answer when it can carry an invitation (a success, or a redirect Credo reads). Otherwise the link's own
 * status and message, which Credo would replace by "InvitationUrl is invalid": a link that answered 5xx (its server
 * restarting, say) failed for now and is worth trying again, so it is an UpstreamError (502), not the caller's 400.
 * @throws UpstreamError for a 5xx answer, InvalidInputError naming `invitationUrl` for any other
 */
async function answered(response: Response): Promise<Response> {
  if (response.ok || (response.status >= 300 && response.status < 400 && response.headers.has('location'))) {
    return response
  }
  const text = await response.text().catch(() => '')
  let message = text.slice(0, 200)
  try {
    const body = JSON.parse(text) as { message?: unknown }
    if (typeof body.message === 'string') message = body.message.slice(0, 200)
  } catch {
    // Not JSON: the start of the text stands as the message.
  }
  const reason = `answered ${response.status}${message ? `: ${message}` : ''}`
  if (response.status >= 500) throw new UpstreamError(`The invitation link ${reason}`)
  throw new InvalidInputError(`Invalid invitationUrl: the link ${reason}`, [
    { field: 'invitationUrl', message: `the link ${reason}` },
  ])
}

/**
 * Refuses an invitation whose inline DIDComm services all point where the agent may not send (the transport checks
 * every send again, services given as DIDs included): a clear 400 now rather than an exchange that fails later.
 * @throws InvalidInputError naming the first refused service endpoint
 */
export async function checkInvitationServices(
  invitation: DidCommOutOfBandInvitation,
  guard: OutboundTargetGuard,
): Promise<void> {
  const endpoints = invitation
    .getServices()
    .flatMap((service) => (typeof service === 'string' ? [] : [service.serviceEndpoint]))
    .filter((endpoint) => /^https?:/i.test(endpoint))
  let firstRefusal: unknown
  for (const [index, endpoint] of endpoints.entries()) {
    try {
      await guard.check(endpoint, `invitation.services[${index}].serviceEndpoint`)
      return
    } catch (error) {
      firstRefusal ??= error
    }
  }
  if (firstRefusal) throw firstRefusal
}

/** GET with redirects followed by hand, each hop checked; a redirect to an encoded invitation URL is handed back. */
async function getChecked(start: string, guard: OutboundTargetGuard): Promise<Response> {
  const deadline = Date.now() + INVITATION_FETCH_TIMEOUT_MS
  let url = start
  for (let hop = 0; ; hop++) {
    const target = await guard.check(url, 'invitationUrl').catch((error: unknown) => {
      if (hop === 0 || !(error instanceof InvalidInputError)) throw error
      const reason = `redirects to a target that ${error.fields[0]?.message ?? 'is refused'}`
      throw new InvalidInputError(`Invalid invitationUrl: ${reason}`, [{ field: 'invitationUrl', message: reason }])
    })
    const answer = await get(target.url, target.lookup, deadline)
    const location = answer.headers.location
    if (answer.status >= 300 && answer.status < 400 && location) {
      const next = new URL(location, target.url).href
      // Credo reads the invitation from a redirect's Location (301/302 only); nothing more to fetch.
      if (ENCODED_INVITATION.test(next)) return asResponse(answer, target.url.href, 302, next)
      if (hop >= INVITATION_MAX_REDIRECTS) {
        const reason = `redirects more than ${INVITATION_MAX_REDIRECTS} times`
        throw new InvalidInputError(`Invalid invitationUrl: ${reason}`, [{ field: 'invitationUrl', message: reason }])
      }
      url = next
      continue
    }
    return asResponse(answer, target.url.href, answer.status)
  }
}

function asResponse(answer: HttpAnswer, url: string, status: number, location?: string): Response {
  const headers = new Headers()
  const contentType = answer.headers['content-type']
  if (contentType) headers.set('content-type', contentType)
  if (location) headers.set('location', location)
  const response = new Response(status === 204 || status === 304 ? null : new Uint8Array(answer.body), {
    status,
    headers,
  })
  // Credo reads `url` (a fetch sets it to the final URL; a constructed Response has none).
  Object.defineProperty(response, 'url', { value: url })
  return response
}

function refused(reason: string, cause?: unknown): InvalidInputError {
  return new InvalidInputError(`Invalid invitationUrl: ${reason}`, [{ field: 'invitationUrl', message: reason }], {
    cause,
  })
}

/** The shared bounded GET, its refusals worded for `invitationUrl`. */
async function get(url: URL, lookup: LookupFunction | undefined, deadline: number): Promise<HttpAnswer> {
  try {
    return await boundedGet(url, {
      lookup,
      accept: 'application/json',
      deadline,
      timeoutMs: INVITATION_FETCH_TIMEOUT_MS,
      maxBytes: INVITATION_MAX_BYTES,
    })
  } catch (error) {
    throw error instanceof HttpGetError ? refused(error.message, error.cause) : error
  }
}
