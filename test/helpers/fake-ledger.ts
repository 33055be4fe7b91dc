import { createPublicKey, verify } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { TypedArrayEncoder } from '@credo-ts/core'
import {
  INDY_DID_PATTERN,
  LEDGER_STALE_REQUEST,
  ledgerSigningBytes,
  type LedgerTransactionType,
  nymPossessionBytes,
} from '@idplane/common/agent-contract/ledger'

/**
 * TEST-ONLY stand-in for the platform ledger's HTTP routes (branch `ledger`, api/src/modules/ledger), played at the
 * edge of the agent's unit tests: the contract of /work/shared and common/agent-contract/ledger.ts, with its
 * checks (Bearer token on NYMs, possession and author signatures over the canonical bytes with the DID's binding,
 * 409 on stale bindings and duplicates, 404 on absent objects) and faults on demand. Answers come in the platform's
 * envelope, as the API's do.
 */
export interface FakeLedgerTransaction {
  seqNo: number
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: Record<string, unknown>
  signature: string
  lastSeqNo: number
  txnTime: string
}

export interface RecordedRequest {
  method: string
  path: string
  authorization?: string
  body?: unknown
}

export class FakeLedger {
  public readonly transactions: FakeLedgerTransaction[] = []
  public readonly requests: RecordedRequest[] = []
  /** The next N requests answer 503 (after being recorded). */
  public failNext = 0
  /** The next N requests are cut off without an answer (after the write, if `dropAfterWrite`). */
  public dropNext = 0
  public dropAfterWrite = false
  /** Only POST requests (writes) count for `dropNext`: reads before a write go through. */
  public dropOnlyWrites = false
  private server: Server | undefined

  public constructor(
    public readonly namespace = 'idplane',
    public readonly token = 'agent-event-token-0123456789',
  ) {}

  public get url(): string {
    const address = this.server?.address() as AddressInfo | undefined
    if (!address) throw new Error('FakeLedger is not listening')
    return `http://127.0.0.1:${address.port}`
  }

  public async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => send(response, 500, { message: String(error) }))
    })
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    return this
  }

  public async stop(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  /** The DID's binding: its latest transaction (its NYM or one it authored), 0 when none. */
  public lastSeqNoOf(did: string): number {
    return (
      this.transactions.filter((t) => t.authorDid === did || (t.type === 'NYM' && t.objectId === did)).at(-1)?.seqNo ??
      0
    )
  }

  public verkeyOf(did: string): string | undefined {
    return this.transactions.filter((t) => t.type === 'NYM' && t.objectId === did).at(-1)?.payload.verkey as
      | string
      | undefined
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://ledger')
    const text = await readBody(request)
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      authorization: request.headers.authorization,
      body,
    })
    if (this.failNext > 0) {
      this.failNext -= 1
      return send(response, 503, { statusCode: 503, message: 'ledger busy' })
    }
    const drop = this.dropNext > 0 && (!this.dropOnlyWrites || request.method === 'POST')
    if (drop && !this.dropAfterWrite) {
      this.dropNext -= 1
      request.socket.destroy()
      return
    }
    const answer = this.route(request.method ?? '', decodeURIComponent(url.pathname), request.headers, body)
    if (drop) {
      this.dropNext -= 1
      request.socket.destroy()
      return
    }
    send(response, answer.status, answer.body)
  }

  private route(
    method: string,
    path: string,
    headers: IncomingMessage['headers'],
    body: Record<string, unknown> | undefined,
  ): { status: number; body: unknown } {
    const ok = (status: number, data: unknown) => ({ status, body: { statusCode: status, message: 'ok', data } })
    const error = (status: number, message: string) => ({ status, body: { statusCode: status, message } })
    if (method === 'GET' && path === '/v1/ledger')
      return ok(200, { namespace: this.namespace, trusteeDid: 'Th7MpTaRZVRYnPiabds81Y', genesisHash: '00' })
    if (method === 'POST' && path === '/v1/ledger/nyms') {
      if (headers.authorization !== `Bearer ${this.token}`) return error(401, 'Unauthenticated')
      const { did, verkey, signature, lastSeqNo } = body as {
        did: string
        verkey: string
        signature: string
        lastSeqNo: number
      }
      const verkeyBytes = TypedArrayEncoder.fromBase58(verkey)
      if (TypedArrayEncoder.toBase58(verkeyBytes.subarray(0, 16)) !== did) return error(400, 'did does not match')
      if (!signed(nymPossessionBytes({ namespace: this.namespace, did, verkey, lastSeqNo }), signature, verkey))
        return error(400, 'signature: not the possession signature of verkey')
      if (lastSeqNo !== this.lastSeqNoOf(did)) return error(409, `${LEDGER_STALE_REQUEST}: bound to ${lastSeqNo}`)
      const existing = this.verkeyOf(did)
      if (existing === verkey)
        return ok(
          200,
          this.transactions.find((t) => t.type === 'NYM' && t.objectId === did),
        )
      if (existing) return error(409, `${did} is already registered with another verkey`)
      return ok(201, this.append('NYM', 'Th7MpTaRZVRYnPiabds81Y', did, { dest: did, verkey }, '', 0))
    }
    if (method === 'POST' && path === '/v1/ledger/transactions') return this.write(body ?? {}, ok, error)
    const state = /^\/v1\/ledger\/dids\/([1-9A-HJ-NP-Za-km-z]{21,22})\/state$/.exec(path)
    if (method === 'GET' && state?.[1]) return ok(200, { did: state[1], lastSeqNo: this.lastSeqNoOf(state[1]) })
    const transaction = /^\/v1\/ledger\/transactions\/([0-9]+)$/.exec(path)
    if (method === 'GET' && transaction) {
      const found = this.transactions.find((t) => t.seqNo === Number(transaction[1]))
      return found ? ok(200, found) : error(404, `No ledger transaction ${transaction[1]}`)
    }
    const schema = /^\/v1\/ledger\/schemas\/(.+)$/.exec(path)
    if (method === 'GET' && schema) {
      const id = legacyId(schema[1], this.namespace)
      if (!id) return error(400, 'schemaId is malformed')
      const found = this.transactions.find((t) => t.type === 'SCHEMA' && t.objectId === id)
      if (!found) return error(404, `Schema ${schema[1]} not found`)
      const { name, version, attrNames } = found.payload
      return ok(200, {
        schemaId: id,
        schema: { issuerId: found.authorDid, name, version, attrNames },
        seqNo: found.seqNo,
        txnTime: found.txnTime,
      })
    }
    const definition = /^\/v1\/ledger\/cred-defs\/(.+)$/.exec(path)
    if (method === 'GET' && definition) {
      const id = legacyId(definition[1], this.namespace)
      if (!id) return error(400, 'credDefId is malformed')
      const found = this.transactions.find((t) => t.type === 'CRED_DEF' && t.objectId === id)
      if (!found) return error(404, `Credential definition ${definition[1]} not found`)
      const { schemaId, type, tag, value } = found.payload
      return ok(200, {
        credentialDefinitionId: id,
        credentialDefinition: { issuerId: found.authorDid, schemaId, type, tag, value },
        seqNo: found.seqNo,
        txnTime: found.txnTime,
      })
    }
    const did = /^\/v1\/ledger\/dids\/(.+)$/.exec(path)
    if (method === 'GET' && did) {
      const id = /^(?:did:indy:([a-z0-9:]+):|did:sov:)?([1-9A-HJ-NP-Za-km-z]{21,22})$/.exec(did[1])
      if (!id) return error(400, 'did is malformed')
      if (id[1] !== undefined && id[1] !== this.namespace) return error(404, `${did[1]} not found`)
      const verkey = this.verkeyOf(id[2])
      if (!verkey) return error(404, `${did[1]} not found`)
      const endpoint = this.transactions.filter((t) => t.type === 'ATTRIB' && t.authorDid === id[2]).at(-1)
      return ok(200, { didDocument: didDocument(did[1], verkey, endpoint?.payload), didDocumentMetadata: {} })
    }
    return error(404, `No route ${method} ${path}`)
  }

  private write(
    body: Record<string, unknown>,
    ok: (status: number, data: unknown) => { status: number; body: unknown },
    error: (status: number, message: string) => { status: number; body: unknown },
  ) {
    const { type, authorDid, payload, signature, lastSeqNo } = body as {
      type: LedgerTransactionType
      authorDid: string
      payload: Record<string, unknown>
      signature: string
      lastSeqNo: number
    }
    if (type === 'NYM') return error(403, 'NYMs are written through POST /v1/ledger/nyms')
    const verkey = this.verkeyOf(authorDid)
    if (!verkey) return error(400, 'authorDid: no NYM')
    if (
      !signed(ledgerSigningBytes({ namespace: this.namespace, type, authorDid, payload, lastSeqNo }), signature, verkey)
    )
      return error(400, 'signature: does not verify with the NYM verkey')
    if (lastSeqNo !== this.lastSeqNoOf(authorDid))
      return error(409, `${LEDGER_STALE_REQUEST}: bound to ${lastSeqNo}, latest is ${this.lastSeqNoOf(authorDid)}`)
    let objectId: string | null = null
    if (type === 'SCHEMA') objectId = `${authorDid}:2:${String(payload.name)}:${String(payload.version)}`
    if (type === 'CRED_DEF') {
      const schema = this.transactions.find((t) => t.type === 'SCHEMA' && t.objectId === payload.schemaId)
      if (!schema) return error(400, 'schemaId: no such schema on the ledger')
      objectId = `${authorDid}:3:CL:${schema.seqNo}:${String(payload.tag)}`
    }
    if (objectId && this.transactions.some((t) => t.objectId === objectId))
      return error(409, `${objectId} is already on the ledger`)
    const transaction = this.append(type, authorDid, objectId, payload, signature, lastSeqNo)
    return ok(201, { ...transaction, ...(objectId ? { id: objectId } : {}) })
  }

  private append(
    type: LedgerTransactionType,
    authorDid: string,
    objectId: string | null,
    payload: Record<string, unknown>,
    signature: string,
    lastSeqNo: number,
  ): FakeLedgerTransaction {
    const transaction = {
      seqNo: this.transactions.length + 1,
      type,
      authorDid,
      objectId,
      payload,
      signature,
      lastSeqNo,
      txnTime: new Date().toISOString(),
    }
    this.transactions.push(transaction)
    return transaction
  }
}

/** An Ed25519 signature (base58) of `data` by `verkey` (base58). */
export function signed(data: Uint8Array, signature: string, verkey: string): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(TypedArrayEncoder.fromBase58(verkey)).toString('base64url') },
    format: 'jwk',
  })
  return verify(null, data, key, TypedArrayEncoder.fromBase58(signature))
}

/** Legacy ids as they are; did:indy object ids of this namespace in their legacy form; undefined otherwise. */
function legacyId(id: string, namespace: string): string | undefined {
  const indy =
    /^did:indy:([a-z0-9:]+?):([1-9A-HJ-NP-Za-km-z]{21,22})\/anoncreds\/v0\/(SCHEMA|CLAIM_DEF)\/(.+)\/(.+)$/.exec(id)
  if (indy) {
    if (indy[1] !== namespace) return undefined
    return indy[3] === 'SCHEMA' ? `${indy[2]}:2:${indy[4]}:${indy[5]}` : `${indy[2]}:3:CL:${indy[4]}:${indy[5]}`
  }
  return INDY_DID_PATTERN.test(id.split(':')[0] ?? '') ? id : undefined
}

/** Indy's base DID document template, with the endpoint's key agreement and DIDComm service when there is one. */
function didDocument(did: string, verkey: string, attrib?: Record<string, unknown>) {
  const endpoint = (attrib?.raw as { endpoint?: { endpoint?: string } } | undefined)?.endpoint?.endpoint
  const document: Record<string, unknown> = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/ed25519-2018/v1'],
    id: did,
    verificationMethod: [
      { id: `${did}#verkey`, type: 'Ed25519VerificationKey2018', controller: did, publicKeyBase58: verkey },
    ],
    authentication: [`${did}#verkey`],
  }
  if (endpoint) {
    const x25519 = TypedArrayEncoder.toBase58(ed25519ToX25519(TypedArrayEncoder.fromBase58(verkey)))
    document.keyAgreement = [
      { id: `${did}#key-agreement-1`, type: 'X25519KeyAgreementKey2019', controller: did, publicKeyBase58: x25519 },
    ]
    document.service = [
      {
        id: `${did}#did-communication`,
        type: 'did-communication',
        serviceEndpoint: endpoint,
        recipientKeys: [`${did}#key-agreement-1`],
        routingKeys: [],
        accept: ['didcomm/aip2;env=rfc19'],
        priority: 0,
      },
    ]
  }
  return document
}

/** The birational map of RFC 7748 (u = (1 + y) / (1 - y) mod p) from an Ed25519 public key to its X25519 form. */
function ed25519ToX25519(publicKey: Uint8Array): Uint8Array {
  const p = 2n ** 255n - 19n
  const bytes = Buffer.from(publicKey)
  bytes[31] &= 0x7f
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`)
  const u = ((1n + y) * modInverse((1n - y + p) % p, p)) % p
  return Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse()
}

/** Fermat: value^(p-2) mod p, p prime. */
function modInverse(value: bigint, modulus: bigint): bigint {
  let [result, base, exponent] = [1n, value % modulus, modulus - 2n]
  while (exponent > 0n) {
    if (exponent & 1n) result = (result * base) % modulus
    base = (base * base) % modulus
    exponent >>= 1n
  }
  return result
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
