import { tmpdir } from 'node:os'
import path from 'node:path'

import { Agent, type BaseAgent, DidsModule, KeyDidRegistrar, PeerDidNumAlgo, PeerDidRegistrar } from '@credo-ts/core'
import {
  DidCommAutoAcceptCredential,
  DidCommAutoAcceptProof,
  DidCommCredentialV2Protocol,
  DidCommModule,
} from '@credo-ts/didcomm'
import { type AnonCredsRegistry, DidCommCredentialV1Protocol, DidCommProofV1Protocol } from '@credo-ts/anoncreds'
import { agentDependencies } from '@credo-ts/node'
import { QuestionAnswerModule } from '@credo-ts/question-answer'
import type { Logger, LogLevel } from '@idplane/common'

import type { IdplaneAdaptersModule } from '../adapters/idplane-adapters.module'
import { IdplaneAnonCredsModule } from '../formats/anoncreds/idplane-anoncreds.module'
import { PlatformTailsFileService } from '../formats/anoncreds/platform-tails-file.service'
import { ReasonGivingProofV2Protocol } from '../formats/anoncreds/reason-giving-proof-formats'
import { TestAnonCredsRegistry } from '../formats/anoncreds/test-registry'
import { IndyLedgerDidRegistrar } from '../ledger/indy-did-registrar'
import { LedgerAnonCredsRegistry } from '../ledger/ledger-anoncreds-registry'
import { LedgerClient } from '../ledger/ledger-client'
import { LedgerDidResolver } from '../ledger/ledger-did-resolver'
import { IdplaneW3cCredentialsModule } from '../formats/jsonld/idplane-w3c-credentials.module'
import { cacheProcessedContexts } from '../formats/jsonld/processed-contexts'
import { shareTermDefinitions } from '../formats/jsonld/shared-term-definitions'
import type { IdplaneOpenId4VcModule } from '../openid4vc/openid4vc.module'
import { NarrowingDifPresentationExchangeModule } from '../formats/presentation-exchange/narrowing-presentation-exchange'
import { TenancyModule } from '../tenancy/tenancy.module'
import { DidCommNodeHttpInboundTransport } from '../transport/didcomm-http-inbound.transport'
import type { TakenEnvelopes } from '../transport/taken-envelopes'
import { DidCommNodeHttpOutboundTransport } from '../transport/didcomm-http-outbound.transport'
import type { OutboundQueue } from '../transport/outbound-queue'
import { guardedFetch } from '../transport/guarded-fetch'
import { OutboundTargetGuard } from '../transport/outbound-target-guard'
import { abandonFailedCredentialExchanges } from './abandon-failed-credential-exchanges'
import { CachingKeyDidResolver, CachingPeerDidResolver } from './caching-did-resolvers'
import { GuardedWebDidResolver } from './guarded-web-did-resolver'
import { CredoLogger } from './credo-logger'
import { cloneRecordsStructurally } from './record-clone'
import { rememberStoredMessages } from './stored-message-memo'
import { rememberFirstCredentials } from './first-credential-memo'
import { rememberDcqlAuthorities } from './dcql-authority-memo'
import { rememberSdJwtVcDecodes } from './sd-jwt-vc-decode-memo'
import { cacheX25519Conversions } from './x25519-conversion-cache'
import { rememberBackendIntersections } from './backend-intersection-memo'
import { checkKmsOptionsOnce } from './kms-option-checks'
import { rememberFingerprints } from './fingerprint-memo'
import { rememberJsonPathParses } from './jsonpath-parse-memo'
import { rememberTransformMetadata } from './transform-metadata-memo'
import { rememberValidationMetadata } from './validation-metadata-memo'
import { credentialFormats, indyCredentialFormat, indyProofFormat, proofFormats } from './formats'

export interface BuildAgentOptions {
  endpoints: string[]
  inboundPort: number
  inboundHost?: string
  logger: Logger
  logLevel: LogLevel
  adapters: IdplaneAdaptersModule
  /** Called for every DIDComm message the inbound port takes in. */
  onInboundMessage?: () => void
  /** TEST-ONLY shared directory of the test AnonCreds registry (AGENT_ANONCREDS_TEST_REGISTRY_DIR); memory if unset. */
  anonCredsTestRegistryDir?: string
  /** The platform ledger (AGENT_LEDGER_URL); without one, did:indy, did:sov and ledger identifiers answer an error. */
  ledger?: LedgerClient
  /**
   * Local cache of revocation tails files, by hash; the platform keeps the files (files are checked on every use, so
   * agents may share it and it may be lost). @default `<os tmpdir>/idplane-tails`
   */
  tailsDirectory?: string
  /**
   * OpenID4VC and x509 (AGENT_OPENID4VC), built by the caller from `agent/src/openid4vc`, which it loads only when
   * enabled (so other agents never load `@credo-ts/openid4vc`). Its public endpoints share the inbound port.
   */
  openId4Vc?: IdplaneOpenId4VcModule
  /** Where DIDComm messages and invitation fetches may go (AGENT_ALLOW_PRIVATE_TARGETS). @default private refused */
  outboundTargets?: OutboundTargetGuard
  /** Keeps DIDComm messages the other agent did not take and sends them again (also after a restart). */
  outboundQueue?: OutboundQueue
  /** Envelopes this agent processed: one sent again is dropped. */
  takenEnvelopes?: TakenEnvelopes
  /** Called for each envelope dropped as already taken. */
  onDuplicateInboundMessage?: () => void
}

/** The tails cache's directory under the OS temporary directory. */
const DEFAULT_TAILS_DIRECTORY_NAME = 'idplane-tails'

/**
 * Assembles the Credo agent: our storage and KMS adapters, base-wallet tenancy, DIDComm over HTTP with the v1 and v2
 * credential and proof protocols, question-answer, W3C JSON-LD with our offline loader, and AnonCreds. Exchanges never auto-accept by agent
 * default; each admin call says how far its exchange may go on its own.
 */
export function buildAgent(options: BuildAgentOptions) {
  // Work Credo's libraries repeat with the same answer, done once (each file says why it is safe).
  cacheX25519Conversions()
  rememberValidationMetadata()
  rememberTransformMetadata()
  rememberBackendIntersections()
  checkKmsOptionsOnce()
  rememberFingerprints()
  rememberJsonPathParses()
  shareTermDefinitions()
  cacheProcessedContexts()
  cloneRecordsStructurally()
  rememberStoredMessages()
  rememberFirstCredentials()
  rememberDcqlAuthorities()
  rememberSdJwtVcDecodes()
  const ledger = options.ledger ?? new LedgerClient({ baseUrl: undefined })
  const outboundTargets = options.outboundTargets ?? new OutboundTargetGuard(false)
  const agent = new Agent({
    config: {
      logger: new CredoLogger(options.logger.child({ component: 'credo' }), options.logLevel),
      allowInsecureHttpUrls: true,
      // A fresh store has no storage-version record and reads as 0.1; updating an empty store is a no-op.
      autoUpdateStorageOnStartup: true,
    },
    // Credo's own fetches (SD-JWT VC status lists and type metadata, OpenID4VC endpoints) go through the guard.
    dependencies: { ...agentDependencies, fetch: guardedFetch(outboundTargets) as typeof fetch },
    modules: {
      adapters: options.adapters,
      w3cCredentials: new IdplaneW3cCredentialsModule(),
      // Credo's default `pex` module, with the holder's candidate credentials narrowed before PEX evaluates them.
      pex: new NarrowingDifPresentationExchangeModule(),
      // AnonCreds on our TypeScript library (no anoncreds-rs native binding), on the platform ledger.
      anoncreds: new IdplaneAnonCredsModule({
        registries: anonCredsRegistries(ledger, options.anonCredsTestRegistryDir),
        tailsFileService: new PlatformTailsFileService(
          ledger,
          options.tailsDirectory ?? path.join(tmpdir(), DEFAULT_TAILS_DIRECTORY_NAME),
        ),
      }),
      dids: new DidsModule({
        registrars: [new KeyDidRegistrar(), new PeerDidRegistrar(), new IndyLedgerDidRegistrar(ledger)],
        // did:key and self-contained did:peer documents never change: resolved once per process (bounded).
        resolvers: [
          new CachingKeyDidResolver(),
          new CachingPeerDidResolver(),
          new GuardedWebDidResolver(),
          new LedgerDidResolver(ledger),
        ],
      }),
      didcomm: new DidCommModule({
        endpoints: options.endpoints,
        transports: {
          // Credo's HTTP transports, on node:http instead of Express and fetch (agent/src/transport).
          inbound: [
            new DidCommNodeHttpInboundTransport({
              port: options.inboundPort,
              host: options.inboundHost,
              onMessage: options.onInboundMessage,
              otherRequests: options.openId4Vc?.handlePublicRequest,
              takenEnvelopes: options.takenEnvelopes,
              onDuplicate: options.onDuplicateInboundMessage,
            }),
          ],
          outbound: [new DidCommNodeHttpOutboundTransport(outboundTargets, options.outboundQueue)],
        },
        // One message at a time stalls ~10 s per message when several connections start at once (DESIGN.md).
        processDidCommMessagesConcurrently: true,
        // did:peer:2 in DID Exchange requests (the responder answers with the same method): the DID encodes its keys
        // and services directly, where Credo's default did:peer:4 encodes the whole document, several kilobytes of
        // base58 to encode, decode and hash per connection.
        connections: {
          autoAcceptConnections: false,
          peerNumAlgoForDidExchangeRequests: PeerDidNumAlgo.MultipleInceptionKeyWithoutDoc,
        },
        credentials: {
          autoAcceptCredentials: DidCommAutoAcceptCredential.Never,
          credentialProtocols: [
            new DidCommCredentialV1Protocol({ indyCredentialFormat: indyCredentialFormat() }),
            new DidCommCredentialV2Protocol({ credentialFormats: credentialFormats() }),
          ],
        },
        proofs: {
          autoAcceptProofs: DidCommAutoAcceptProof.Never,
          proofProtocols: [
            new DidCommProofV1Protocol({ indyProofFormat: indyProofFormat() }),
            new ReasonGivingProofV2Protocol({ proofFormats: proofFormats() }),
          ],
        },
        mediator: false,
        mediationRecipient: false,
        messagePickup: false,
        basicMessages: true,
      }),
      questionAnswer: new QuestionAnswerModule(),
      tenancy: new TenancyModule(),
      ...(options.openId4Vc ? { openid4vc: options.openId4Vc } : {}),
    },
  })
  agent.didcomm.registerMessageHandlerMiddleware(abandonFailedCredentialExchanges())
  // The admin API's invitation fetch asks the same guard as the transport (tenants resolve it from their parent).
  agent.dependencyManager.registerInstance(OutboundTargetGuard, outboundTargets)
  return agent
}

/**
 * Credo takes the first registry whose pattern matches an identifier. With the TEST-ONLY directory set (tests
 * share objects between agent processes through it) the test registry comes first and keeps every identifier it
 * knows (did:key, legacy, `did:indy:idplane-test`); the ledger then serves only did:indy ids of other namespaces.
 * Otherwise the ledger registry comes first and takes legacy and did:indy ids, and the in-memory test registry is
 * left with did:key issuers, as before the ledger (docs/decisions.md, Ledger (issue 13): agent side).
 */
function anonCredsRegistries(
  ledger: LedgerClient,
  testRegistryDir: string | undefined,
): [AnonCredsRegistry, ...AnonCredsRegistry[]] {
  const ledgerRegistry = new LedgerAnonCredsRegistry(ledger)
  if (testRegistryDir) return [new TestAnonCredsRegistry(testRegistryDir), ledgerRegistry]
  return [ledgerRegistry, new TestAnonCredsRegistry()]
}

export type IdplaneAgent = ReturnType<typeof buildAgent>
export type IdplaneModules = IdplaneAgent extends Agent<infer Modules> ? Modules : never
/** The base agent or a tenant's agent: what the admin routes act on. */
export type ScopedAgent = BaseAgent<IdplaneModules>
