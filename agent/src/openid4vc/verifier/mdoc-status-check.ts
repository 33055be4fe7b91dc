import { type AgentContext, JsonEncoder, Kms, type Mdoc, TypedArrayEncoder, X509Certificate } from '@credo-ts/core'
import {
  decodeTokenStatusList,
  getTokenStatus,
  STATUS_LIST_JWT_MEDIA_TYPE,
  STATUS_LIST_JWT_TYPE,
  TOKEN_STATUS,
} from '@idplane/common/token-status-list'

/** A status list token is a few kB; anything far above is not one (the fetch itself stops at 8 MiB). */
const MAX_TOKEN_CHARS = 1 << 20

/** Names of the statuses section 7.1 registers, for the reason a verification gives. */
const STATUS_NAMES: Record<number, string> = {
  [TOKEN_STATUS.INVALID]: 'revoked',
  [TOKEN_STATUS.SUSPENDED]: 'suspended',
}

export class MdocStatusError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'MdocStatusError'
  }
}

/**
 * The Token Status List entry in an mdoc's MSO (`status.status_list`, draft-ietf-oauth-status-list 6.3), if any.
 * @throws MdocStatusError for a status that is not `{ status_list: { idx, uri } }`
 */
export function msoStatusOf(mdoc: Mdoc): { idx: number; uri: string } | undefined {
  const mso = mdoc.issuerSignedDocument.issuerSigned.issuerAuth.decodedPayload as { status?: unknown }
  if (mso.status === undefined) return undefined
  const statusList = field(mso.status, 'status_list')
  const idx = field(statusList, 'idx')
  const uri = field(statusList, 'uri')
  if (
    typeof idx !== 'number' ||
    !Number.isInteger(idx) ||
    idx < 0 ||
    typeof uri !== 'string' ||
    !/^https?:\/\//.test(uri)
  )
    throw new MdocStatusError('The mdoc has a malformed status: status_list must be { idx, uri }')
  return { idx, uri }
}

/**
 * Refuses an mdoc whose status list says it is not valid (Credo 0.6.3 checks the status of SD-JWT VCs, not of
 * mdocs). Its issuer signature is checked first against `trustedCertificates`, so an mdoc that is not what it claims
 * makes no fetch (Credo then refuses it for that). The status list token is fetched from the MSO's `uri` (through
 * the agent's guarded fetch) and must be signed by the mdoc's own signing certificate, as our issuers sign it and as
 * Credo asks of an SD-JWT VC's list.
 * @throws MdocStatusError when the status is not VALID, or the list cannot be fetched, verified or read
 */
export async function checkMdocStatus(agentContext: AgentContext, mdoc: Mdoc, trustedCertificates: string[]) {
  const reference = msoStatusOf(mdoc)
  if (!reference) return
  if (!(await mdoc.verify(agentContext, { trustedCertificates })).isValid) return
  const claims = await verifiedStatusListToken(agentContext, reference.uri, mdoc.signingCertificate)
  let status: number
  try {
    const { bits, bytes } = decodeTokenStatusList(claims.status_list)
    status = getTokenStatus(bytes, bits, reference.idx)
  } catch (error) {
    throw new MdocStatusError(`The status list at ${reference.uri} cannot be read: ${(error as Error).message}`)
  }
  if (status !== TOKEN_STATUS.VALID)
    throw new MdocStatusError(`Status is not valid: the mdoc is ${STATUS_NAMES[status] ?? `in status ${status}`}`)
}

/**
 * The claims of the status list token at `uri`, its signature checked with the key of `signingCertificate`.
 * @throws MdocStatusError when it cannot be fetched, is not a status list token for `uri`, has expired, or its
 *   signature does not verify
 */
async function verifiedStatusListToken(
  agentContext: AgentContext,
  uri: string,
  signingCertificate: Uint8Array,
): Promise<Record<string, unknown>> {
  let jwt: string
  try {
    const response = await agentContext.config.agentDependencies.fetch(uri, {
      headers: { Accept: STATUS_LIST_JWT_MEDIA_TYPE },
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    jwt = (await response.text()).trim()
  } catch (error) {
    throw new MdocStatusError(`The status list at ${uri} cannot be fetched: ${(error as Error).message}`)
  }
  const parts = jwt.length <= MAX_TOKEN_CHARS ? jwt.split('.') : []
  if (parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part)))
    throw new MdocStatusError(`The status list at ${uri} is not a compact JWT`)
  const [header, payload] = parts.slice(0, 2).map((part) => decodeJsonObject(part, uri))
  if (header.typ !== STATUS_LIST_JWT_TYPE)
    throw new MdocStatusError(`The status list at ${uri} is not a ${STATUS_LIST_JWT_TYPE} token`)
  const publicJwk = X509Certificate.fromRawCertificate(signingCertificate).publicJwk
  const algorithm = header.alg
  if (typeof algorithm !== 'string' || !publicJwk.supportedSignatureAlgorithms.some((one) => one === algorithm))
    throw new MdocStatusError(
      `The status list at ${uri} is not signed with the mdoc's signing key (alg ${String(algorithm)})`,
    )
  const { verified } = await agentContext.resolve(Kms.KeyManagementApi).verify({
    key: { publicJwk: publicJwk.toJson() },
    algorithm: algorithm as Kms.KnownJwaSignatureAlgorithm,
    data: TypedArrayEncoder.fromString(`${parts[0]}.${parts[1]}`),
    signature: TypedArrayEncoder.fromBase64(parts[2]),
  })
  if (!verified) throw new MdocStatusError(`The status list at ${uri} is not signed by the mdoc's signing certificate`)
  // Section 5.1: `sub` is the list's URI; an `exp` in the past means the token may no longer be relied on.
  if (payload.sub !== uri)
    throw new MdocStatusError(`The status list at ${uri} names another list (${String(payload.sub)})`)
  if (typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now())
    throw new MdocStatusError(`The status list at ${uri} has expired`)
  return payload
}

function decodeJsonObject(part: string, uri: string): Record<string, unknown> {
  try {
    const value: unknown = JsonEncoder.fromBuffer(TypedArrayEncoder.fromBase64(part))
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // Reported below.
  }
  throw new MdocStatusError(`The status list at ${uri} is not a JWT of JSON objects`)
}

/** A member of a decoded CBOR map (a Map) or of an object. */
function field(container: unknown, key: string): unknown {
  if (container instanceof Map) return container.get(key)
  if (typeof container === 'object' && container !== null) return (container as Record<string, unknown>)[key]
  return undefined
}
