import type { LookupFunction } from 'node:net'

import { type AgentContext, JsonTransformer, W3cJsonLdVerifiableCredential } from '@credo-ts/core'
import { decodeBitstring, getBit, StatusListError, statusListIndexOf } from '@idplane/common/bitstring-status-list'

import { boundedGet } from '../../transport/http-get'
import { OutboundTargetGuard } from '../../transport/outbound-target-guard'

/** The largest status list credential fetched (a 1 Mi-entry list compresses far below this). */
const MAX_LIST_BYTES = 2 * 1024 * 1024
/** @default 15 s to fetch a status list credential. */
const FETCH_TIMEOUT_MS = 15_000

/** What the check of one `credentialStatus` entry found: ok, or why not (revoked, suspended, or not checkable). */
export type StatusCheck = { ok: true } | { ok: false; reason: string }

/** Verifies a fetched status list credential's proof (the JSON-LD service itself, without a status of its own). */
export type ListVerifier = (list: W3cJsonLdVerifiableCredential) => Promise<{ isValid: boolean; error?: unknown }>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function issuerIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  return isRecord(value) && typeof value.id === 'string' ? value.id : undefined
}

/**
 * Checks a JSON-LD credential's Bitstring Status List entries (W3C Bitstring Status List v1.0, "Validate
 * Algorithm"): each list credential is fetched from its `statusListCredential` URL through the agent's outgoing-target
 * rule, its proof verified, its issuer must be the credential's and its purpose the entry's; a set bit is a failure
 * naming the purpose. An entry of another type, or one that cannot be checked, fails too (a status the verifier
 * cannot confirm is not a valid one).
 */
export async function checkCredentialStatus(
  agentContext: AgentContext,
  credential: Record<string, unknown>,
  verifyList: ListVerifier,
): Promise<StatusCheck> {
  const entries = Array.isArray(credential.credentialStatus)
    ? credential.credentialStatus
    : [credential.credentialStatus]
  for (const entry of entries) {
    const result = await checkEntry(agentContext, credential, entry, verifyList)
    if (!result.ok) return result
  }
  return { ok: true }
}

async function checkEntry(
  agentContext: AgentContext,
  credential: Record<string, unknown>,
  entry: unknown,
  verifyList: ListVerifier,
): Promise<StatusCheck> {
  if (!isRecord(entry) || entry.type !== 'BitstringStatusListEntry')
    return { ok: false, reason: 'The credential status is not a BitstringStatusListEntry' }
  const { statusListCredential: url, statusPurpose: purpose } = entry
  const index = statusListIndexOf(entry.statusListIndex)
  if (typeof url !== 'string' || typeof purpose !== 'string' || index === undefined)
    return { ok: false, reason: 'The credential status entry lacks its list, purpose or index' }
  let listJson: unknown
  try {
    listJson = JSON.parse(await fetchList(agentContext, url))
  } catch (error) {
    return { ok: false, reason: `The status list ${url} could not be fetched: ${(error as Error).message}` }
  }
  if (!isRecord(listJson) || !isRecord(listJson.credentialSubject))
    return { ok: false, reason: `The status list ${url} is not a credential` }
  const subject = listJson.credentialSubject
  const issuer = issuerIdOf(credential.issuer)
  if (issuer === undefined || issuerIdOf(listJson.issuer) !== issuer)
    return { ok: false, reason: `The status list ${url} is not signed by the credential's issuer` }
  // A list may state several purposes ("one or more strings"); the entry's must be one of them.
  const listPurposes: unknown[] = Array.isArray(subject.statusPurpose) ? subject.statusPurpose : [subject.statusPurpose]
  if (!listPurposes.includes(purpose))
    return { ok: false, reason: `The status list ${url} is for ${listPurposes.map(String).join(', ')}, not ${purpose}` }
  try {
    const list = JsonTransformer.fromJSON(listJson, W3cJsonLdVerifiableCredential)
    const verified = await verifyList(list)
    if (!verified.isValid)
      return {
        ok: false,
        reason: `The status list ${url} does not verify: ${verified.error instanceof Error ? verified.error.message : 'invalid proof'}`,
      }
  } catch (error) {
    return { ok: false, reason: `The status list ${url} does not verify: ${(error as Error).message}` }
  }
  try {
    const bits = decodeBitstring(String(subject.encodedList))
    if (index >= bits.length * 8) return { ok: false, reason: `Index ${index} is outside the status list ${url}` }
    if (getBit(bits, index))
      return {
        ok: false,
        reason: `The credential is ${purpose === 'suspension' ? 'suspended' : purpose === 'revocation' ? 'revoked' : `flagged (${purpose})`}: status list ${url}, index ${index}`,
      }
  } catch (error) {
    if (error instanceof StatusListError) return { ok: false, reason: `The status list ${url}: ${error.message}` }
    throw error
  }
  return { ok: true }
}

async function fetchList(agentContext: AgentContext, location: string): Promise<string> {
  const guard = agentContext.dependencyManager.isRegistered(OutboundTargetGuard)
    ? agentContext.dependencyManager.resolve(OutboundTargetGuard)
    : new OutboundTargetGuard(false)
  const { url, lookup } = await guard.check(location, 'statusListCredential')
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not an http(s) URL')
  return get(url, lookup)
}

async function get(url: URL, lookup: LookupFunction | undefined): Promise<string> {
  const answer = await boundedGet(url, {
    lookup,
    accept: 'application/vc+ld+json, application/json',
    deadline: Date.now() + FETCH_TIMEOUT_MS,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxBytes: MAX_LIST_BYTES,
  })
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`)
  return answer.body.toString('utf8')
}
