/**
 * A STOCK Credo-ts 0.6.3 agent for the agent benchmark's peer pair (issue 27 item 2): Credo's own modules, Node's
 * key-management service over its in-memory key storage, records in memory (in-memory-storage.ts), Credo's HTTP
 * transports. Only what stock Credo lacks for the benchmark's iteration is added, and each is named below: the
 * DIDComm v1 box (Node's crypto has no XSalsa20; Askar would do it), two JSON-LD contexts offline (documentLoader
 * option), and an Ed25519Signature2020 suite that accepts did:key's 2018 verification method (DESIGN.md, pitfalls).
 * Options are Credo's public ones, set as our agent sets them (concurrent message processing, did:peer:2).
 *
 * It serves the admin routes the benchmark's iteration calls (same paths and `{ data }` envelope as our agent) and
 * posts the same state-change events to AGENT_EVENT_URL.
 */
import { createServer, request as httpRequest, Agent as HttpAgent } from 'node:http'

import {
  Agent,
  type AgentContext,
  ConsoleLogger,
  LogLevel,
  InjectionSymbols,
  Kms,
  PeerDidNumAlgo,
  SignatureSuiteToken,
  TypedArrayEncoder,
  VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2018,
  VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2020,
  W3cCredentialsModule,
  type DependencyManager,
  type Module,
} from '@credo-ts/core'
import {
  DidCommAutoAcceptCredential,
  DidCommAutoAcceptProof,
  DidCommConnectionEventTypes,
  DidCommCredentialEventTypes,
  DidCommCredentialV2Protocol,
  DidCommDifPresentationExchangeProofFormatService,
  DidCommHttpOutboundTransport,
  DidCommJsonLdCredentialFormatService,
  DidCommModule,
  DidCommProofEventTypes,
  DidCommProofV2Protocol,
} from '@credo-ts/didcomm'
import {
  agentDependencies,
  DidCommHttpInboundTransport,
  NodeInMemoryKeyManagementStorage,
  NodeKeyManagementService,
} from '@credo-ts/node'

import {
  BOX_NONCE_BYTES,
  openAnonymous,
  openAuthenticated,
  randomNonce,
  sealAnonymous,
  sealAuthenticated,
  sodiumReady,
  x25519FromEd25519Seed,
  x25519FromPrivateScalar,
} from '../../agent/src/adapters/kms/didcomm-v1-box'
import { DidKeyEd25519Signature2020 } from '../../agent/src/formats/jsonld/did-key-ed25519-signature-2020'
import { offlineDocumentLoader } from '../../agent/src/formats/jsonld/offline-document-loader'
import { BenchInMemoryStorageService } from './in-memory-storage'

/** Node's KMS, plus the DIDComm v1 box it lacks (what Askar provides); no caching of derived keys. */
class NodeKmsWithDidCommBox implements Kms.KeyManagementService {
  public readonly backend = 'node'
  private readonly storage = new NodeInMemoryKeyManagementStorage()
  private readonly node = new NodeKeyManagementService(this.storage)

  public isOperationSupported(agentContext: AgentContext, operation: Kms.KmsOperation): boolean {
    return isBox(operation) || this.node.isOperationSupported(agentContext, operation)
  }
  public getPublicKey(agentContext: AgentContext, keyId: string) {
    return this.node.getPublicKey(agentContext, keyId)
  }
  public createKey<Type extends Kms.KmsCreateKeyType>(
    agentContext: AgentContext,
    options: Kms.KmsCreateKeyOptions<Type>,
  ) {
    return this.node.createKey(agentContext, options)
  }
  public importKey<Jwk extends Kms.KmsJwkPrivate>(agentContext: AgentContext, options: Kms.KmsImportKeyOptions<Jwk>) {
    return this.node.importKey(agentContext, options)
  }
  public deleteKey(agentContext: AgentContext, options: Kms.KmsDeleteKeyOptions) {
    return this.node.deleteKey(agentContext, options)
  }
  public sign(agentContext: AgentContext, options: Kms.KmsSignOptions) {
    return this.node.sign(agentContext, options)
  }
  public verify(agentContext: AgentContext, options: Kms.KmsVerifyOptions) {
    return this.node.verify(agentContext, options)
  }
  public randomBytes(agentContext: AgentContext, options: Kms.KmsRandomBytesOptions) {
    return this.node.randomBytes(agentContext, options)
  }

  public async encrypt(agentContext: AgentContext, options: Kms.KmsEncryptOptions): Promise<Kms.KmsEncryptReturn> {
    const agreement = 'keyAgreement' in options.key ? options.key.keyAgreement : undefined
    if (agreement?.algorithm !== 'ECDH-HSALSA20') return this.node.encrypt(agentContext, options)
    await sodiumReady()
    const recipient = TypedArrayEncoder.fromBase64(agreement.externalPublicJwk.x)
    if (!agreement.keyId) return { encrypted: new Uint8Array(sealAnonymous(options.data, recipient)) }
    const nonce = options.encryption.iv ?? randomNonce()
    if (nonce.length !== BOX_NONCE_BYTES) throw new Kms.KeyManagementError('A 24-byte iv is needed')
    const sender = await this.x25519(agentContext, agreement.keyId)
    return { encrypted: new Uint8Array(sealAuthenticated(options.data, nonce, recipient, sender)), iv: nonce }
  }

  public async decrypt(agentContext: AgentContext, options: Kms.KmsDecryptOptions): Promise<Kms.KmsDecryptReturn> {
    const agreement = 'keyAgreement' in options.key ? options.key.keyAgreement : undefined
    if (agreement?.algorithm !== 'ECDH-HSALSA20') return this.node.decrypt(agentContext, options)
    await sodiumReady()
    const recipient = await this.x25519(agentContext, agreement.keyId)
    if (!agreement.externalPublicJwk) return { data: new Uint8Array(openAnonymous(options.encrypted, recipient)) }
    if (!options.decryption.iv) throw new Kms.KeyManagementError('Authcrypt needs an iv')
    const sender = TypedArrayEncoder.fromBase64(agreement.externalPublicJwk.x)
    return { data: new Uint8Array(openAuthenticated(options.encrypted, options.decryption.iv, sender, recipient)) }
  }

  private async x25519(agentContext: AgentContext, keyId: string) {
    const jwk = await this.storage.get(agentContext, keyId)
    if (jwk?.kty === 'OKP' && jwk.crv === 'Ed25519') return x25519FromEd25519Seed(TypedArrayEncoder.fromBase64(jwk.d))
    if (jwk?.kty === 'OKP' && jwk.crv === 'X25519') return x25519FromPrivateScalar(TypedArrayEncoder.fromBase64(jwk.d))
    throw new Kms.KeyManagementKeyNotFoundError(keyId, [this.backend])
  }
}

function isBox(operation: Kms.KmsOperation): boolean {
  if (operation.operation === 'encrypt') return operation.keyAgreement?.algorithm === 'ECDH-HSALSA20'
  if (operation.operation === 'decrypt') return operation.keyAgreement?.algorithm === 'ECDH-HSALSA20'
  return false
}

/** Registers the storage service and a 2020 suite ahead of Credo's (the registry answers the first match). */
class BenchStorageAndSuiteModule implements Module {
  public register(dependencyManager: DependencyManager): void {
    dependencyManager.registerInstance(InjectionSymbols.StorageService, new BenchInMemoryStorageService())
  }
}

/** Credo's W3C module with the offline contexts, and the 2020 suite accepting did:key's 2018 method registered first. */
class BenchW3cCredentialsModule extends W3cCredentialsModule {
  public constructor() {
    super({ documentLoader: offlineDocumentLoader })
  }

  public override register(dependencyManager: DependencyManager): void {
    dependencyManager.registerInstance(SignatureSuiteToken, {
      suiteClass: DidKeyEd25519Signature2020,
      proofType: 'Ed25519Signature2020',
      verificationMethodTypes: [
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2018,
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2020,
      ],
      supportedPublicJwkTypes: [Kms.Ed25519PublicJwk],
    })
    super.register(dependencyManager)
  }
}

const label = process.env.AGENT_LABEL ?? 'stock'
const adminPort = Number(process.env.AGENT_ADMIN_PORT)
const inboundPort = Number(process.env.AGENT_INBOUND_PORT)
const endpoint = `http://127.0.0.1:${inboundPort}`

const agent = new Agent({
  config: {
    allowInsecureHttpUrls: true,
    autoUpdateStorageOnStartup: true,
    ...(process.env.STOCK_AGENT_DEBUG ? { logger: new ConsoleLogger(LogLevel.warn) } : {}),
  },
  dependencies: agentDependencies,
  modules: {
    bench: new BenchStorageAndSuiteModule(),
    kms: new Kms.KeyManagementModule({ backends: [new NodeKmsWithDidCommBox()] }),
    w3cCredentials: new BenchW3cCredentialsModule(),
    didcomm: new DidCommModule({
      endpoints: [endpoint],
      transports: {
        inbound: [new DidCommHttpInboundTransport({ port: inboundPort })],
        outbound: [new DidCommHttpOutboundTransport()],
      },
      processDidCommMessagesConcurrently: true,
      connections: { peerNumAlgoForDidExchangeRequests: PeerDidNumAlgo.MultipleInceptionKeyWithoutDoc },
      credentials: {
        autoAcceptCredentials: DidCommAutoAcceptCredential.ContentApproved,
        credentialProtocols: [
          new DidCommCredentialV2Protocol({ credentialFormats: [new DidCommJsonLdCredentialFormatService()] }),
        ],
      },
      proofs: {
        autoAcceptProofs: DidCommAutoAcceptProof.ContentApproved,
        proofProtocols: [
          new DidCommProofV2Protocol({ proofFormats: [new DidCommDifPresentationExchangeProofFormatService()] }),
        ],
      },
      mediator: false,
      mediationRecipient: false,
      messagePickup: false,
    }),
  },
})

/** State changes to the benchmark's sink, batched like our agent's (`{ events: [...] }`), one request at a time. */
const eventUrl = new URL(process.env.AGENT_EVENT_URL ?? 'http://127.0.0.1:1/events')
const keepAlive = new HttpAgent({ keepAlive: true })
let queued: unknown[] = []
let sending = false
interface StateRecord {
  id: string
  state: string
  threadId?: string
  outOfBandId?: string
}

function post(kind: string, record: StateRecord): void {
  queued.push({
    kind,
    agentLabel: label,
    record: { id: record.id, state: record.state, threadId: record.threadId, outOfBandId: record.outOfBandId },
  })
  if (!sending) void drain()
}
async function drain(): Promise<void> {
  sending = true
  while (queued.length > 0) {
    const events = queued.slice(0, 20)
    queued = queued.slice(20)
    await new Promise<void>((resolve) => {
      const req = httpRequest(
        eventUrl,
        {
          method: 'POST',
          agent: keepAlive,
          headers: { authorization: `Bearer ${process.env.AGENT_EVENT_TOKEN}`, 'content-type': 'application/json' },
        },
        (res) => res.resume().on('end', resolve),
      )
      req.on('error', () => resolve())
      req.end(JSON.stringify({ events }))
    })
  }
  sending = false
}

/** Request bodies are the benchmark's own, trusted as they come. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the benchmark's own bodies, passed to Credo as they come
type Body = Record<string, any>
type Handler = (body: Body, id?: string) => Promise<unknown>
type StateEvent = { payload: Record<string, StateRecord> }
const routes: Record<string, Handler> = {
  'POST /dids': async () => {
    const result = await agent.dids.create({
      method: 'key',
      options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
    } as never)
    return { did: result.didState.did }
  },
  'POST /oob/create-invitation': async (body) => {
    const record = await agent.didcomm.oob.createInvitation({ label, autoAcceptConnection: body.autoAcceptConnection })
    return { invitationUrl: record.outOfBandInvitation.toUrl({ domain: endpoint }), outOfBandRecord: { id: record.id } }
  },
  'POST /oob/receive-invitation-url': async (body) => {
    const { connectionRecord } = await agent.didcomm.oob.receiveInvitationFromUrl(body.invitationUrl, {
      label,
      autoAcceptConnection: body.autoAcceptConnection,
      autoAcceptInvitation: body.autoAcceptInvitation,
    } as never)
    return { connectionRecord: { id: connectionRecord?.id } }
  },
  'POST /credentials/offer': async (body) => {
    // A stock caller must put the 2020 suite context in the offer: the holder compares the issued credential to it.
    const credential = {
      ...body.credential,
      '@context': [...body.credential['@context'], 'https://w3id.org/security/suites/ed25519-2020/v1'],
    }
    const record = await agent.didcomm.credentials.offerCredential({
      connectionId: body.connectionId,
      protocolVersion: 'v2',
      credentialFormats: { jsonld: { credential, options: body.options } },
    } as never)
    return { id: record.id, threadId: record.threadId }
  },
  'POST /credentials/accept-offer': async (body) => {
    const record = await agent.didcomm.credentials.acceptOffer({ credentialExchangeRecordId: body.credentialRecordId })
    return { id: record.id }
  },
  'POST /proofs/request': async (body) => {
    const record = await agent.didcomm.proofs.requestProof({
      connectionId: body.connectionId,
      protocolVersion: 'v2',
      proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition } },
    } as never)
    return { id: record.id, threadId: record.threadId }
  },
  'POST /proofs/accept-request': async (body) => {
    const proofs = agent.didcomm.proofs
    const selected = await proofs.selectCredentialsForRequest({ proofExchangeRecordId: body.proofRecordId })
    const record = await proofs.acceptRequest({
      proofExchangeRecordId: body.proofRecordId,
      proofFormats: selected.proofFormats,
    })
    return { id: record.id }
  },
  'POST /proofs/verify': async (_body, id) => {
    let record = await agent.didcomm.proofs.getById(id as string)
    if (record.state === 'presentation-received') {
      record = await agent.didcomm.proofs.acceptPresentation({ proofExchangeRecordId: record.id })
    }
    return { isVerified: record.isVerified === true }
  },
}

async function main(): Promise<void> {
  await agent.initialize()
  const forward = (kind: string, field: string) => (baseEvent: unknown) =>
    post(kind, (baseEvent as StateEvent).payload[field])
  agent.events.on(DidCommConnectionEventTypes.DidCommConnectionStateChanged, forward('connection', 'connectionRecord'))
  agent.events.on(
    DidCommCredentialEventTypes.DidCommCredentialStateChanged,
    forward('credential', 'credentialExchangeRecord'),
  )
  agent.events.on(DidCommProofEventTypes.ProofStateChanged, forward('proof', 'proofRecord'))

  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
    req.on('end', () => {
      const url = req.url ?? '/'
      const verify = /^\/proofs\/([^/]+)\/verify$/.exec(url)
      const key = verify ? 'POST /proofs/verify' : `${req.method} ${url}`
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ statusCode: status, data }))
      }
      if (key === 'GET /agent') return send(200, { label })
      const handler = routes[key]
      if (!handler) return send(404, { message: `No route ${key}` })
      handler(raw ? JSON.parse(raw) : {}, verify?.[1]).then(
        (data) => send(200, data),
        (error: unknown) => send(500, { message: String(error) }),
      )
    })
  })
  server.keepAliveTimeout = 60000
  server.listen(adminPort, '127.0.0.1')
  process.once('SIGTERM', () => {
    server.close()
    void agent.shutdown().finally(() => process.exit(0))
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
