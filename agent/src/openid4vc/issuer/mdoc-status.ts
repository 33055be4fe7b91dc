import {
  type AgentContext,
  injectable,
  Kms,
  Mdoc,
  MdocRepository,
  MdocService,
  type MdocSignOptions,
  TypedArrayEncoder,
} from '@credo-ts/core'
import { cborDecode, cborEncode, DataItem } from '@animo-id/mdoc'
import type { TokenStatusReference } from '@idplane/common/token-status-list'

/** What our credential mapper asks to sign: Credo's options and, for a revocable mdoc, its Token Status List entry. */
export type MdocSignOptionsWithStatus = MdocSignOptions & { status?: TokenStatusReference }

/**
 * Credo 0.6.3 builds the mobile security object (MSO) itself and has no place for a `status` in it; this service
 * (registered over Credo's MdocService) signs an mdoc as Credo does and, when the options carry a status, adds it to
 * the MSO (ISO/IEC 18013-5 second edition and draft-ietf-oauth-status-list 6.3: `status: { status_list: { idx,
 * uri } }`) and signs the MSO again with the same key.
 */
@injectable()
export class StatusListMdocService extends MdocService {
  // Declared again so the container injects what Credo's MdocService takes.
  public constructor(mdocRepository: MdocRepository) {
    super(mdocRepository)
  }

  public override async signMdoc(agentContext: AgentContext, options: MdocSignOptionsWithStatus): Promise<Mdoc> {
    const { status, ...credoOptions } = options
    const signed = await super.signMdoc(agentContext, credoOptions)
    if (!status) return signed
    return withMsoStatus(agentContext, signed, status, options.issuerCertificate.publicJwk)
  }
}

/**
 * `mdoc` with `status` added to its MSO, signed again by `issuerKey` (the KMS key of its signing certificate). The
 * MSO's bytes are kept as they were signed and the entry is appended to them, so nothing else in it is re-encoded.
 * @throws Error when the MSO already has a status or is not a CBOR map
 */
export async function withMsoStatus(
  agentContext: AgentContext,
  mdoc: Mdoc,
  status: TokenStatusReference,
  issuerKey: Kms.PublicJwk,
): Promise<Mdoc> {
  // IssuerSigned = { nameSpaces, issuerAuth: COSE_Sign1 [protected, unprotected, payload, signature] }.
  const issuerSigned = cborDecode(TypedArrayEncoder.fromBase64(mdoc.base64Url)) as Map<string, unknown>
  const issuerAuth = issuerSigned.get('issuerAuth') as [Uint8Array, Map<number, unknown>, Uint8Array, Uint8Array]
  const [protectedHeader, unprotectedHeader, payload] = issuerAuth
  // The payload is the MSO as tag 24 (encoded CBOR data item) around its bytes.
  const wrapped = cborDecode(payload)
  if (!(wrapped instanceof DataItem)) throw new Error('The MSO is not an encoded CBOR data item')
  const statusEntry = new Map([
    [
      'status_list',
      new Map<string, unknown>([
        ['idx', status.status_list.idx],
        ['uri', status.status_list.uri],
      ]),
    ],
  ])
  const newPayload = cborEncode(new DataItem({ buffer: withMapEntry(wrapped.buffer, 'status', statusEntry) }))
  // RFC 9052 4.4: Sig_structure = ["Signature1", protected, external_aad (empty), payload].
  const toBeSigned = cborEncode(['Signature1', protectedHeader, new Uint8Array(0), newPayload])
  const algorithm = mdoc.alg as Kms.KnownJwaSignatureAlgorithm
  const { signature } = await agentContext
    .resolve(Kms.KeyManagementApi)
    .sign({ keyId: issuerKey.keyId, algorithm, data: toBeSigned })
  issuerSigned.set('issuerAuth', [protectedHeader, unprotectedHeader, newPayload, signature])
  return Mdoc.fromBase64Url(TypedArrayEncoder.toBase64URL(cborEncode(issuerSigned)))
}

/**
 * The CBOR map `encodedMap` with `key: value` appended: a new header for one more entry, then the entries as they
 * were (the library that signed the MSO writes a map's size in two bytes, so the header is read in any width).
 * @throws Error when `encodedMap` is not a definite-length CBOR map, or already has `key`
 */
export function withMapEntry(encodedMap: Uint8Array, key: string, value: unknown): Uint8Array {
  const { entries, headerLength } = mapHeaderOf(encodedMap)
  const decoded = cborDecode(encodedMap)
  if (!(decoded instanceof Map) || decoded.size !== entries) throw new Error('The MSO is not a CBOR map')
  if (decoded.has(key)) throw new Error(`The MSO already has ${key}`)
  return concat([mapHeader(entries + 1), encodedMap.subarray(headerLength), cborEncode(key), cborEncode(value)])
}

/** RFC 8949 3.1: major type 5 (0xa0), its count in the low five bits (below 24) or in the 1, 2 or 4 bytes after. */
function mapHeaderOf(bytes: Uint8Array): { entries: number; headerLength: number } {
  const first = bytes[0]
  if (first === undefined || first >> 5 !== 5) throw new Error('The MSO is not a CBOR map')
  const info = first & 0x1f
  if (info < 24) return { entries: info, headerLength: 1 }
  const width = { 24: 1, 25: 2, 26: 4 }[info]
  if (width === undefined || bytes.length < 1 + width) throw new Error('The MSO is not a definite-length CBOR map')
  let entries = 0
  for (let i = 1; i <= width; i++) entries = entries * 256 + bytes[i]
  return { entries, headerLength: 1 + width }
}

function mapHeader(entries: number): Uint8Array {
  if (entries < 24) return Uint8Array.of(0xa0 | entries)
  if (entries < 0x100) return Uint8Array.of(0xb8, entries)
  return Uint8Array.of(0xb9, entries >> 8, entries & 0xff)
}

function concat(parts: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    result.set(part, offset)
    offset += part.length
  }
  return result
}
