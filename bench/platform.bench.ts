/**
 * Platform benchmark: full iterations (connect + issue + request + present + verify) through the platform API,
 * with a webhook receiver registered, beside the agent-only figure of bench:agent measured in the same run.
 *
 *   npm run bench:platform          (builds dist/ first, then runs this file)
 *   BENCH_ITERATIONS=64 BENCH_WORKERS=16 BENCH_ROUNDS=4 npm run bench:platform
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:platform   (PostgreSQL for the
 *   API and the agents instead of the embedded defaults)
 *   BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/api-prof" npm run bench:platform   (Node options of the API
 *   process, e.g. to profile it; the profile is written when the API exits)
 *   BENCH_AGENT_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/agent-prof"   (Node options of the agents this benchmark
 *   starts: the agent-only issuer and holder, and the platform side's holder; added to those agents ship with), and
 *   BENCH_AGENT_ENV (their environment, NAME=value separated by spaces), as bench:agent takes them
 *   BENCH_ORG_AGENT_PROFILE=/tmp/org-prof   (a CPU profile of the organization agent per platform side and round,
 *   attached through its inspector: the API starts that agent, so no Node option reaches it)
 *
 * Platform side: the built API as a child process, one organization (issuer and verifier) whose agent the API
 * runs, and a holder agent process driven through its admin API as an outside wallet. The organization's side is
 * waited for through the webhook (each state change arrives as a signed POST), the holder's through its own event
 * sink. Agent-only side: two agent processes driven directly (bench/agent-harness.ts). Both sides are set up and
 * warmed up first (one iteration, then BENCH_WARMUP iterations at full concurrency, default BENCH_WORKERS, not
 * counted: the first rounds at 8 in flight otherwise carry each process's JIT warm-up), then run the same number of
 * iterations with the same concurrency in alternating rounds (BENCH_ROUNDS, default 4; every side in the turn, the
 * order reversed each round: ABBA) in this one process: on a shared machine the load changes within minutes, and
 * one side after the other measured the load as much as the platform. Each side's CPU per iteration (from /proc) is
 * printed too: it moves less with the load than wall time does; so are each round's iterations per minute, to show
 * how much the machine moved during the run. Besides its processes', each side's line gives the PostgreSQL server's
 * CPU per iteration (PostgreSQL runs only) and this benchmark's own: the API's statements cost the server too.
 * The platform sides also print the API's statements per iteration (its idplane_api_database_statements_total,
 * read from the API's /metrics around each round; begin and commit are not counted) and the means of its hops from
 * its histograms over the same rounds: an agent event stored after the agent's occurredAt, a webhook delivered after
 * the event, a webhook POST, its calls to the agent, the requests it answered.
 *
 * INDY mode (issue 13; BENCH_INDY=0 turns it off): a third side runs the same iteration with AnonCreds through
 * the same API, organization and holder: an INDY schema and credential definition published on the platform
 * ledger through the API first, then per iteration connect + INDY offer (Issue Credential v2) + a proof request
 * with a revealed attribute and a predicate (`age >= 18`) + present + verify. Its iterations per minute are printed
 * beside the JSON-LD figure of the same run (`INDY iterations/minute: ...`), before the last line.
 *
 * OpenID4VC mode (issue 29; BENCH_OPENID4VC=0 turns it off): a fourth side through the same API and organization,
 * with the holder agent as an OpenID4VC wallet (its admin API's holder operations): per iteration an SD-JWT VC offer
 * with a transaction code (create-offer) redeemed by the holder, waited for through the `oid4vc-issuance` webhook
 * (`Completed`), then a DCQL presentation request (two of four claims) answered by the holder and waited for through
 * the `oid4vp-verification` webhook (`ResponseVerified`, the disclosed claims checked). There is no connection and no
 * separate verify call: the verifier checks the response as it arrives, so `connect` and `verify` are 0 and `present`
 * holds the verification. The API then runs with HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false and the agents with
 * AGENT_OPENID4VC (the module loaded: about 10 MB more resident per agent, docs/decisions.md). Printed as
 * `OpenID4VC iterations/minute: ...` before the last line.
 *
 * The last line is `iterations/minute: N (agent-only M, ratio R)`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { Agent as HttpAgent } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { AGENT_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { freshDatabase, type FreshDatabase } from '../test/helpers/database'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../test/fixtures/degree-credential'
import {
  type Agent,
  EventSink,
  iteration as agentOnlyIteration,
  shippedAgentOptions,
  startAgent,
  startSink,
  type Step,
  stepTable,
  stopAgent,
} from './agent-harness'
import {
  type ApiProcess,
  call,
  childPidsOf,
  freePort,
  cpuMsOf,
  expectJson,
  nonNegativeIntEnv,
  percentile,
  positiveIntEnv,
  publishIndyDefinition,
  signUp,
  startApiProcess,
} from './api-harness'
import { type AttachedProfile, startCpuProfile } from './cpu-profile-attach'
import { isWebhookEvent, WebhookReceiver } from './webhook-receiver'

// 96: on a fast 2-core machine 32 iterations made rounds of about a second, and one run's ratio swung 0.76-0.95.
const ITERATIONS = positiveIntEnv('BENCH_ITERATIONS', 96)
const WORKERS = positiveIntEnv('BENCH_WORKERS', 8)
/** Each side's iterations are run in this many rounds, the sides taking turns (ABBA). */
const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 4)
/** Iterations of each side at full concurrency before the measured rounds, not counted (0: none). */
const WARMUP = nonNegativeIntEnv('BENCH_WARMUP', WORKERS)
const SERVER_URL = process.env.BENCH_DATABASE_URL
const INDY = process.env.BENCH_INDY !== '0'
const OPENID4VC = process.env.BENCH_OPENID4VC !== '0'
const WEBHOOK_SECRET = 'bench-webhook-secret-0001'
const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean)
const ORG_AGENT_PROFILE_DIR = process.env.BENCH_ORG_AGENT_PROFILE
/** The name of the organization agent among a platform side's processes. */
const ORGANIZATION_AGENT = 'organization agent'
/**
 * Every agent of the run as agents ship (the API gives its organization agent the same), with no collection when
 * an agent goes idle, on every side: the sides take turns, so one side's agents go idle while the next side runs, and
 * their idle collection (100-250 ms of CPU each) would be measured in that side's round. Under a steady load an agent
 * never goes idle, so this is the throughput agents have there.
 */
const AGENT_OPTIONS = shippedAgentOptions({ AGENT_MEMORY_SAVING: 'false' })

const holderEvent =
  (kind: string, state: string, field: string, value: unknown) =>
  (event: { kind: string; agentLabel: string; record: Record<string, unknown> }): boolean =>
    event.agentLabel === 'holder' &&
    event.kind === kind &&
    event.record.state === state &&
    event.record[field] === value

interface PlatformContext {
  api: ApiProcess
  http: HttpAgent
  token: string
  orgId: string
  orgDid: string
  holder: Agent
  holderDid: string
  sink: EventSink
  webhook: WebhookReceiver
  /** Milliseconds of every API call, by operation. */
  calls: Map<string, number[]>
}

async function timed<T>(context: PlatformContext, name: string, work: Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work
  } finally {
    const list = context.calls.get(name) ?? []
    list.push(performance.now() - started)
    context.calls.set(name, list)
  }
}

function apiCall<T>(
  context: PlatformContext,
  name: string,
  method: string,
  route: string,
  body?: unknown,
  status = 201,
) {
  return timed(
    context,
    name,
    expectJson<T>(
      call(context.http, context.api.port, method, route, { body, token: context.token, timeoutMs: 60_000 }),
      status,
      name,
    ),
  )
}

/** A connection from the organization's invitation (through the API) to the holder, completed on both sides. */
async function connect(context: PlatformContext) {
  const invitation = await apiCall<{ invitationUrl: string; outOfBandRecord: { id: string } }>(
    context,
    'POST connections',
    'POST',
    `/v1/orgs/${context.orgId}/connections`,
    {},
  )
  await context.holder.call('POST', '/oob/receive-invitation-url', {
    invitationUrl: invitation.invitationUrl,
    autoAcceptConnection: true,
    autoAcceptInvitation: true,
  })
  const connection = await context.webhook.waitFor(
    isWebhookEvent('connection.state-changed', 'completed', 'outOfBandId', invitation.outOfBandRecord.id),
  )
  return { invitation, connection }
}

/** What differs between a JSON-LD and an INDY iteration: the offer's and the request's route and body. */
interface ExchangeKind {
  label: string
  offerRoute: string
  offer(connectionId: string, uniqueValue: string): unknown
  requestRoute: string
  request(connectionId: string, uniqueValue: string): unknown
}

function jsonLdKind(context: PlatformContext): ExchangeKind {
  return {
    label: 'JSON-LD',
    offerRoute: 'credentials/offer?credentialType=JSONLD&isValidateSchema=false',
    offer: (connectionId, degree) => ({
      credentialData: [
        {
          connectionId,
          credential: aDegreeCredential(context.orgDid, context.holderDid, degree),
          options: signingOptions(),
        },
      ],
    }),
    requestRoute: 'proofs?requestType=PRESENTATIONEXCHANGE',
    request: (connectionId, degree) => ({
      connectionId,
      presentationDefinition: aDegreePresentationDefinition([
        { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degree } },
      ]),
    }),
  }
}

/** INDY mode: AnonCreds over Issue Credential / Present Proof v2, a revealed attribute and a predicate. */
function indyKind(credentialDefinitionId: string): ExchangeKind {
  return {
    label: 'INDY',
    offerRoute: 'credentials/offer?credentialType=INDY',
    offer: (connectionId, name) => ({
      credentialDefinitionId,
      protocolVersion: 'v2',
      credentialData: [
        {
          connectionId,
          attributes: [
            { name: 'name', value: name },
            { name: 'age', value: '30' },
          ],
        },
      ],
    }),
    requestRoute: 'proofs?requestType=INDY',
    request: (connectionId) => ({
      connectionId,
      protocolVersion: 'v2',
      proofFormats: {
        indy: {
          attributes: [
            { attributeName: 'name', credDefId: credentialDefinitionId },
            { attributeName: 'age', condition: '>=', value: '18', credDefId: credentialDefinitionId },
          ],
        },
      },
    }),
  }
}

/** One iteration through the platform API (connect, issue, request, present, verify); the milliseconds of each step. */
async function platformIteration(context: PlatformContext, kind: ExchangeKind): Promise<Record<Step, number>> {
  const { holder, sink, webhook, orgId } = context
  const times = {} as Record<Step, number>
  let started = performance.now()
  const lap = (step: Step) => {
    const now = performance.now()
    times[step] = now - started
    started = now
  }
  const named = (call: string) => (kind.label === 'JSON-LD' ? call : `${call} (${kind.label})`)

  const { invitation, connection } = await connect(context)
  lap('connect')

  // A value unique to the iteration, so that the request can only be met by this iteration's credential.
  const unique = `Holder ${invitation.outOfBandRecord.id}`
  const [offer] = await apiCall<{ id: string; threadId: string }[]>(
    context,
    named('POST credentials/offer'),
    'POST',
    `/v1/orgs/${orgId}/${kind.offerRoute}`,
    kind.offer(connection.record.id, unique),
  )
  const holderOffer = await sink.waitFor(holderEvent('credential', 'offer-received', 'threadId', offer.threadId))
  await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: holderOffer.record.id })
  await webhook.waitFor(isWebhookEvent('credential.state-changed', 'done', 'threadId', offer.threadId))
  lap('issue')

  const request = await apiCall<{ id: string; threadId: string }>(
    context,
    named('POST proofs'),
    'POST',
    `/v1/orgs/${orgId}/${kind.requestRoute}`,
    kind.request(connection.record.id, unique),
  )
  const holderRequest = await sink.waitFor(holderEvent('proof', 'request-received', 'threadId', request.threadId))
  lap('request')

  await holder.call('POST', '/proofs/accept-request', { proofRecordId: holderRequest.record.id })
  await webhook.waitFor(isWebhookEvent('proof.state-changed', 'presentation-received', 'threadId', request.threadId))
  lap('present')

  const verified = await apiCall<{ isVerified: boolean }>(
    context,
    named('POST proofs/:id/verify'),
    'POST',
    `/v1/orgs/${orgId}/proofs/${request.id}/verify`,
  )
  if (!verified.isVerified) throw new Error(`${kind.label} presentation did not verify`)
  lap('verify')
  return times
}

/** What an OpenID4VC iteration needs, made once: the issuer, its SD-JWT VC template, the verifier. */
interface OpenId4VcSetup {
  issuerId: string
  templateId: string
  verifierId: string
}

const EMPLOYEE_VCT = 'https://bench.idplane.test/credentials/employee'

/** Certificates (issuance and the verifier's, trusted by the holder), issuer, template and verifier, through the API. */
async function openId4VcSetup(context: PlatformContext): Promise<OpenId4VcSetup> {
  const { orgId } = context
  const certificate = (body: object) =>
    apiCall<{ certificate: string }>(context, 'POST x509', 'POST', `/v1/x509/${orgId}`, body)
  const issuance = await certificate({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'Bench Org' } })
  const verification = await certificate({
    keyType: 'P-256',
    purpose: 'verification',
    subject: { commonName: 'Bench Org verifier' },
    sanDnsNames: ['localhost'],
  })
  for (const { certificate: pem } of [issuance, verification]) {
    await context.holder.call('POST', '/openid4vc/trust-anchors', { certificate: pem })
  }
  const issuer = await apiCall<{ issuerId: string }>(
    context,
    'POST oid4vc/issuers',
    'POST',
    `/v1/orgs/${orgId}/oid4vc/issuers`,
    {
      display: [{ name: 'Bench Org' }],
    },
  )
  const template = await apiCall<{ id: string }>(
    context,
    'POST oid4vc template',
    'POST',
    `/v1/orgs/${orgId}/oid4vc/${issuer.issuerId}/template`,
    {
      name: 'Employee',
      format: 'dc+sd-jwt',
      vct: EMPLOYEE_VCT,
      claims: [
        { path: ['given_name'], mandatory: true },
        { path: ['family_name'], mandatory: true },
        { path: ['department'] },
        { path: ['employee_number'] },
      ],
      signer: { method: 'x5c' },
    },
  )
  const verifier = await apiCall<{ verifierId: string }>(
    context,
    'POST oid4vp/verifier',
    'POST',
    `/v1/orgs/${orgId}/oid4vp/verifier`,
    {
      clientName: 'Bench Org HR',
    },
  )
  return { issuerId: issuer.issuerId, templateId: template.id, verifierId: verifier.verifierId }
}

/**
 * One OpenID4VC iteration: an SD-JWT VC offer with a transaction code redeemed by the holder, then a DCQL request
 * for two of its four claims answered by the holder; each side waited for through the organization's webhook.
 */
async function openId4VcIteration(context: PlatformContext, setup: OpenId4VcSetup): Promise<Record<Step, number>> {
  const { holder, webhook, orgId } = context
  const times: Record<Step, number> = { connect: 0, issue: 0, request: 0, present: 0, verify: 0 }
  let started = performance.now()
  const lap = (step: Step) => {
    const now = performance.now()
    times[step] = now - started
    started = now
  }

  // A value unique to the iteration, checked in what the verifier reports as disclosed.
  const department = `Department ${Math.random().toString(36).slice(2)}`
  const offer = await apiCall<{ id: string; offerUri: string; txCode: string }>(
    context,
    'POST oid4vc create-offer',
    'POST',
    `/v1/orgs/${orgId}/oid4vc/${setup.issuerId}/create-offer`,
    {
      credentials: [
        {
          templateId: setup.templateId,
          claims: { given_name: 'Ada', family_name: 'Lovelace', department, employee_number: 42 },
        },
      ],
      txCode: { length: 6 },
    },
  )
  await holder.call('POST', '/openid4vc/holder/offers/accept', { offerUri: offer.offerUri, txCode: offer.txCode })
  await webhook.waitFor(isWebhookEvent('oid4vc-issuance.state-changed', 'Completed', 'id', offer.id))
  lap('issue')

  const presentation = await apiCall<{ id: string; requestUri: string }>(
    context,
    'POST oid4vp/presentation',
    'POST',
    `/v1/orgs/${orgId}/oid4vp/presentation`,
    {
      verifierId: setup.verifierId,
      query: {
        type: 'dcql',
        dcql: {
          credentials: [
            {
              id: 'employee',
              format: 'dc+sd-jwt',
              meta: { vct_values: [EMPLOYEE_VCT] },
              claims: [{ path: ['given_name'] }, { path: ['department'], values: [department] }],
            },
          ],
        },
      },
    },
  )
  lap('request')

  await holder.call('POST', '/openid4vc/holder/requests/accept', { requestUri: presentation.requestUri })
  const verified = await webhook.waitFor(
    isWebhookEvent('oid4vp-verification.state-changed', 'ResponseVerified', 'id', presentation.id),
  )
  const [disclosed] = (verified.record.disclosed ?? []) as { claims?: Record<string, unknown> }[]
  if (disclosed?.claims?.department !== department || 'family_name' in (disclosed?.claims ?? {})) {
    throw new Error(`OpenID4VC presentation disclosed ${JSON.stringify(verified.record.disclosed)}`)
  }
  lap('present')
  return times
}

/** CPU milliseconds (user + system) of a process so far; NaN when it cannot be read. */
function cpuNow(pid: number | undefined): number {
  try {
    return pid === undefined ? Number.NaN : cpuMsOf(pid)
  } catch {
    return Number.NaN
  }
}

/**
 * CPU milliseconds of every PostgreSQL process on this machine so far (the server's backends serve both sides'
 * pools, which live through the run; the sides take turns, so a round's growth is that side's); NaN when /proc
 * cannot be read. A backend that ends during a round takes its CPU with it: the postmaster's reaped children count
 * it (without them an agent-only round once came out at -9 ms per iteration).
 */
function postgresCpuNow(): number {
  try {
    let total = 0
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
          total += cpuMsOf(Number(entry), { withReapedChildren: true })
      } catch {
        // A process that ended meanwhile.
      }
    }
    return total
  } catch {
    return Number.NaN
  }
}

/**
 * What the platform sides read from the API's /metrics around each round: its statements (the sum of
 * idplane_api_database_statements_total's series) and, per hop below, the sum and count of its histogram's series.
 */
type ApiMetrics = Record<string, number>

/** One of the API's hops: a histogram, all its series or those of one route, printed per side as a mean. */
interface ApiHop {
  label: string
  metric: string
  route?: string
}

const API_HOPS: readonly ApiHop[] = [
  { label: "agent event stored after its agent's occurredAt", metric: 'idplane_api_agent_event_lag_seconds' },
  { label: 'webhook delivered after the event', metric: 'idplane_api_webhook_delivery_lag_seconds' },
  { label: 'webhook POST', metric: 'idplane_api_webhook_delivery_duration_seconds' },
  { label: "the API's call to its agent", metric: 'idplane_api_agent_request_duration_seconds' },
  { label: 'request to the API', metric: 'idplane_api_http_request_duration_seconds' },
  {
    label: "an agent's event batch, answered",
    metric: 'idplane_api_http_request_duration_seconds',
    route: AGENT_EVENTS_PATH,
  },
]

/** A /metrics line: its name, its labels' text and its value. */
const METRIC_LINE = /^(\w+)(?:\{(.*)\})? (\S+)$/

function apiMetricsOf(text: string): ApiMetrics {
  const totals: ApiMetrics = { statements: 0 }
  const add = (key: string, value: number) => (totals[key] = (totals[key] ?? 0) + value)
  for (const line of text.split('\n')) {
    const [, name, labels = '', valueText] = METRIC_LINE.exec(line) ?? []
    if (name === undefined) continue
    const value = Number(valueText)
    if (name === 'idplane_api_database_statements_total') add('statements', value)
    for (const hop of API_HOPS) {
      const part = name === `${hop.metric}_sum` ? 'sum' : name === `${hop.metric}_count` ? 'count' : undefined
      if (part && (hop.route === undefined || labels.includes(`route="${hop.route}"`)))
        add(`${hop.label}_${part}`, value)
    }
  }
  return totals
}

/** One side of the comparison, set up and warmed up; rounds of it run between rounds of the other side. */
interface Side {
  title: string
  iteration(): Promise<Record<Step, number>>
  /** The processes doing this side's work, by name, for CPU per iteration. */
  processes: Record<string, number | undefined>
  results: Record<Step, number>[]
  wallMs: number
  cpuMs: Record<string, number>
  /** CPU of the PostgreSQL server and of this benchmark's process during the side's rounds (PostgreSQL runs only). */
  besidesMs: { postgres: number; benchmark: number }
  /** Iterations per minute of each measured round, in order. */
  roundRates: number[]
  /** The API's metrics so far (apiMetricsOf), for statements per iteration and the means of its hops. */
  apiMetricsNow?: () => Promise<ApiMetrics>
  /** What those metrics grew by during the side's rounds. */
  apiMetrics: ApiMetrics
  /** Printed after the side's step table. */
  report?(): Promise<void>
  tearDown(): Promise<void>
}

function side(
  title: string,
  iteration: () => Promise<Record<Step, number>>,
  processes: Record<string, number | undefined>,
  tearDown: () => Promise<void>,
  report?: () => Promise<void>,
): Side {
  const cpuMs = Object.fromEntries(Object.keys(processes).map((name) => [name, 0]))
  const besidesMs = { postgres: 0, benchmark: 0 }
  return {
    title,
    iteration,
    processes,
    results: [],
    wallMs: 0,
    cpuMs,
    besidesMs,
    roundRates: [],
    apiMetrics: {},
    report,
    tearDown,
  }
}

/**
 * With BENCH_ORG_AGENT_PROFILE=<dir>, a CPU profile of the organization agent (which the API starts, so no Node option
 * reaches it) over each round of a platform side, attached through its inspector (cpu-profile-attach.ts):
 * `<dir>/<side>-<round>.cpuprofile`. The profiler's own cost then counts in that agent's CPU figures.
 */
async function profileOrganizationAgent(target: Side): Promise<AttachedProfile | undefined> {
  const pid = target.processes[ORGANIZATION_AGENT]
  if (!ORG_AGENT_PROFILE_DIR || pid === undefined) return undefined
  const name = `${target.title.replace(/\W+/g, '-').replace(/^-|-$/g, '')}-${target.roundRates.length + 1}`
  return startCpuProfile(pid, ORG_AGENT_PROFILE_DIR, name)
}

/** `count` iterations of the side, WORKERS at a time; adds their times, wall time and CPU to the side's totals. */
async function round(target: Side, count: number): Promise<void> {
  const profile = await profileOrganizationAgent(target)
  const cpuBefore = Object.fromEntries(Object.entries(target.processes).map(([name, pid]) => [name, cpuNow(pid)]))
  const [postgresBefore, benchmarkBefore] = [SERVER_URL ? postgresCpuNow() : 0, process.cpuUsage()]
  const metricsBefore = await target.apiMetricsNow?.()
  const started = performance.now()
  target.results.push(...(await iterations(target, count)))
  const wallMs = performance.now() - started
  if (profile) console.log(`organization agent profile: ${await profile.stop()}`)
  target.wallMs += wallMs
  target.roundRates.push((count / wallMs) * 60_000)
  for (const [name, pid] of Object.entries(target.processes)) target.cpuMs[name] += cpuNow(pid) - cpuBefore[name]
  if (SERVER_URL) target.besidesMs.postgres += postgresCpuNow() - postgresBefore
  const benchmark = process.cpuUsage(benchmarkBefore)
  target.besidesMs.benchmark += (benchmark.user + benchmark.system) / 1000
  if (metricsBefore !== undefined && target.apiMetricsNow) {
    const metricsAfter = await target.apiMetricsNow()
    for (const [key, value] of Object.entries(metricsAfter))
      target.apiMetrics[key] = (target.apiMetrics[key] ?? 0) + value - (metricsBefore[key] ?? 0)
  }
}

/** `count` iterations of the side, WORKERS at a time: their step times. */
async function iterations(target: Side, count: number): Promise<Record<Step, number>[]> {
  const results: Record<Step, number>[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(WORKERS, count) }, async () => {
      while (next < count) {
        next++
        results.push(await target.iteration())
      }
    }),
  )
  return results
}

function cpuLine(target: Side): string {
  const parts = Object.entries(target.cpuMs).map(([name, ms]) => ({ name, ms: ms / target.results.length }))
  const total = parts.reduce((sum, part) => sum + part.ms, 0)
  const { postgres, benchmark } = target.besidesMs
  const besides = [
    SERVER_URL ? `PostgreSQL ${(postgres / target.results.length).toFixed(0)} ms` : undefined,
    `this benchmark's process ${(benchmark / target.results.length).toFixed(0)} ms`,
  ].filter(Boolean)
  return (
    `CPU per iteration: ${parts.map((part) => `${part.name} ${part.ms.toFixed(0)} ms`).join(', ')}; total ${total.toFixed(0)} ms` +
    ` (besides: ${besides.join(', ')})`
  )
}

/** Agents' database: a PostgreSQL URL of a fresh database when BENCH_DATABASE_URL is set, else PGlite. */
async function agentDatabase(): Promise<FreshDatabase | undefined> {
  return SERVER_URL ? freshDatabase('postgres', SERVER_URL) : undefined
}

/** The platform side: the API, its organization's agent, a holder, the webhook receiver; warmed up. */
async function platformSide(): Promise<Side & { indy?: Side; openId4Vc?: Side; delivered(): Promise<boolean> }> {
  const sink = new EventSink()
  const sinkServer = await startSink(sink)
  const webhook = new WebhookReceiver(WEBHOOK_SECRET)
  const webhookServer = await webhook.listen()
  const apiDatabase = await agentDatabase()
  const holderDatabase = await agentDatabase()
  const http = new HttpAgent({ keepAlive: true, maxSockets: 64 })
  let api: ApiProcess | undefined
  let holder: Agent | undefined
  const tearDown = async () => {
    http.destroy()
    if (holder) await stopAgent(holder)
    await api?.stop()
    sinkServer.close()
    webhookServer.close()
    await apiDatabase?.drop()
    await holderDatabase?.drop()
  }
  try {
    api = await startApiProcess(
      process.execPath,
      {
        ...(apiDatabase?.target.kind === 'postgres' ? { DATABASE_URL: apiDatabase.target.url } : {}),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // Passed on to the organization's agent (AGENT_TUNING_ENV), as AGENT_OPTIONS to the others.
        AGENT_MEMORY_SAVING: AGENT_OPTIONS.env.AGENT_MEMORY_SAVING,
        // OpenID4VC mode: the experimental routes served, agents with the module; the verifier's certificate names
        // localhost (x509_san_dns), so its public endpoint must say localhost too.
        ...(OPENID4VC
          ? { HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false', AGENT_PUBLIC_ENDPOINT_BASE: 'http://localhost' }
          : {}),
        // Free ports for the organization's agent (admin below inbound, as the setting wants), so that runs and tests
        // beside this one do not collide.
        AGENT_PORT_COUNTER_START: [await freePort(), await freePort()]
          .sort((a, b) => a - b)
          .map((port) => port - 1)
          .join(','),
      },
      undefined,
      API_NODE_ARGS,
    )
    const { token, orgId } = await signUp(api, http)
    await expectJson(
      call(http, api.port, 'POST', `/v1/orgs/${orgId}/agents/spinup`, { body: { label: 'Bench Org' }, token }),
      201,
      'spin-up',
    )
    const deadline = Date.now() + 120_000
    for (;;) {
      const health = await expectJson<{ status: string; isAnswering: boolean }>(
        call(http, api.port, 'GET', `/v1/orgs/${orgId}/agents/health`, { token }),
        200,
        'agent health',
      )
      if (health.isAnswering) break
      if (Date.now() > deadline) throw new Error(`Organization agent not ready: ${JSON.stringify(health)}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    // Spin-up makes the organization's DID once its agent answers: wait for it.
    let dids: { did: string; isPrimaryDid: boolean }[] = []
    while (dids.length === 0) {
      dids = await expectJson<{ did: string; isPrimaryDid: boolean }[]>(
        call(http, api.port, 'GET', `/v1/orgs/${orgId}/dids`, { token }),
        200,
        'DIDs',
      )
      if (dids.length === 0 && Date.now() > deadline) throw new Error('The organization has no DID')
      if (dids.length === 0) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    const orgDid = (dids.find((did) => did.isPrimaryDid) ?? dids[0]).did
    const webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/hook`
    await expectJson(
      call(http, api.port, 'POST', `/webhooks/orgs/${orgId}/register`, {
        body: { webhookUrl, webhookSecret: WEBHOOK_SECRET },
        token,
      }),
      201,
      'register webhook',
    )
    const sinkUrl = `http://127.0.0.1:${(sinkServer.address() as AddressInfo).port}/events`
    holder = await startAgent('holder', sinkUrl, {
      nodeArgs: AGENT_OPTIONS.nodeArgs,
      ...(holderDatabase?.target.kind === 'postgres' ? { databaseUrl: holderDatabase.target.url } : {}),
      // The holder resolves AnonCreds objects on the platform ledger, which the API serves.
      env: {
        ...AGENT_OPTIONS.env,
        AGENT_LEDGER_URL: `http://127.0.0.1:${api.port}`,
        ...(OPENID4VC ? { AGENT_OPENID4VC: 'true' } : {}),
      },
    })
    const { did: holderDid } = await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })
    const context: PlatformContext = {
      api,
      http,
      token,
      orgId,
      orgDid,
      holder,
      holderDid,
      sink,
      webhook,
      calls: new Map(),
    }
    const apiPort = api.port
    const apiMetricsNow = async () => apiMetricsOf((await call(http, apiPort, 'GET', '/metrics')).body)
    const jsonLd = jsonLdKind(context)
    await platformIteration(context, jsonLd) // warm-up: contexts, caches, the first connection's DIDs
    const indy = INDY
      ? indyKind(
          (await publishIndyDefinition(context.http, context.api.port, context.token, context.orgId))
            .credentialDefinitionId,
        )
      : undefined
    // Warm-up of INDY mode: the holder's link secret, the definition in both agents' caches.
    if (indy) await platformIteration(context, indy)
    const openId4Vc = OPENID4VC ? await openId4VcSetup(context) : undefined
    // Warm-up of OpenID4VC mode: the holder's first key, both agents' issuer and verifier state.
    if (openId4Vc) await openId4VcIteration(context, openId4Vc)
    webhook.lagsMs.length = 0
    context.calls.clear()
    const apiProcess = api
    const apiPid = api.child.pid
    const processes = {
      API: apiPid,
      [ORGANIZATION_AGENT]: apiPid === undefined ? undefined : childPidsOf(apiPid)[0],
      holder: holder.process.pid,
    }
    let pending = 0
    let total = 0
    // Every event the platform recorded for the webhook must have been delivered, once.
    const drain = async () => {
      const drainDeadline = Date.now() + 60_000
      for (;;) {
        const page = await expectJson<{ totalItems: number }>(
          call(http, apiProcess.port, 'GET', `/webhooks/orgs/${orgId}/deliveries?pageSize=1&status=pending`, {
            token,
          }),
          200,
          'deliveries',
        )
        pending = page.totalItems
        const all = await expectJson<{ totalItems: number }>(
          call(http, apiProcess.port, 'GET', `/webhooks/orgs/${orgId}/deliveries?pageSize=1`, { token }),
          200,
          'deliveries',
        )
        total = all.totalItems
        if (pending === 0 || Date.now() > drainDeadline) return
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
    const report = async () => {
      console.log('\n| API call | calls | p50 ms | p99 ms |')
      console.log('|---|---|---|---|')
      for (const [name, values] of context.calls) {
        const sorted = [...values].sort((a, b) => a - b)
        console.log(
          `| ${name} | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} |`,
        )
      }
      await drain()
      const lags = [...webhook.lagsMs].sort((a, b) => a - b)
      console.log(
        `\nwebhook: ${webhook.events.size} distinct events received, ${total} deliveries recorded, ${pending} pending, ` +
          `${webhook.duplicates} duplicates, ${webhook.badSignatures} bad signatures; ` +
          `delivery lag p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms`,
      )
    }
    // Every platform side is read the same way: the one API's statements, its processes' CPU.
    const platformSideOf = (
      title: string,
      iteration: () => Promise<Record<Step, number>>,
      sideTearDown: () => Promise<void> = async () => {},
      sideReport?: () => Promise<void>,
    ): Side => ({
      ...side(`${title} (${WORKERS} in flight)`, iteration, processes, sideTearDown, sideReport),
      apiMetricsNow,
    })
    return {
      ...platformSideOf('platform API', () => platformIteration(context, jsonLd), tearDown, report),
      indy: indy ? platformSideOf('platform API, INDY', () => platformIteration(context, indy)) : undefined,
      openId4Vc: openId4Vc
        ? platformSideOf('platform API, OpenID4VC', () => openId4VcIteration(context, openId4Vc))
        : undefined,
      delivered: async () => {
        await drain()
        return pending === 0 && webhook.events.size === total && webhook.badSignatures === 0
      },
    }
  } catch (error) {
    await tearDown()
    throw error
  }
}

/** The agent-only side: an issuer and a holder agent driven directly; warmed up. */
async function agentOnlySide(): Promise<Side> {
  const sink = new EventSink()
  const server = await startSink(sink)
  const eventUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  const databases = [await agentDatabase(), await agentDatabase()]
  const agents: Agent[] = []
  const tearDown = async () => {
    for (const agent of agents) await stopAgent(agent)
    server.close()
    for (const database of databases) await database?.drop()
  }
  try {
    const options = (database: FreshDatabase | undefined) => ({
      ...AGENT_OPTIONS,
      ...(database?.target.kind === 'postgres' ? { databaseUrl: database.target.url } : {}),
    })
    const issuer = await startAgent('issuer', eventUrl, options(databases[0]))
    agents.push(issuer)
    const holder = await startAgent('holder', eventUrl, options(databases[1]))
    agents.push(holder)
    const { did: issuerDid } = await issuer.call<{ did: string }>('POST', '/dids', { method: 'key' })
    const { did: holderDid } = await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })
    const context = { issuer, holder, sink, issuerDid, holderDid }
    await agentOnlyIteration(context)
    return side(
      `agent only (${WORKERS} in flight)`,
      () => agentOnlyIteration(context),
      { issuer: issuer.process.pid, holder: holder.process.pid },
      tearDown,
    )
  } catch (error) {
    await tearDown()
    throw error
  }
}

/** The means of the API's hops during the side's rounds, and how many of each per iteration (its histograms). */
function apiHopsLine(target: Side): string {
  const hops = API_HOPS.map(({ label }) => {
    const count = target.apiMetrics[`${label}_count`] ?? 0
    const sum = target.apiMetrics[`${label}_sum`] ?? 0
    const mean = count > 0 ? `${((sum / count) * 1000).toFixed(1)} ms` : 'none'
    return `${label} ${mean} (${(count / target.results.length).toFixed(1)} per iteration)`
  })
  return `the API's hops, means: ${hops.join('; ')}`
}

async function main(): Promise<void> {
  const rounds = Math.min(ROUNDS, ITERATIONS)
  console.log(
    `bench:platform: ${ITERATIONS} iterations per side in ${rounds} alternating rounds after ${WARMUP} not counted, ` +
      `${WORKERS} in flight, ` +
      `${SERVER_URL ? 'PostgreSQL' : 'embedded (PGlite)'}, ${new Date().toISOString()}, load before ${loadavg()[0].toFixed(2)}`,
  )
  const agentOnly = await agentOnlySide()
  let platform: Awaited<ReturnType<typeof platformSide>> | undefined
  try {
    platform = await platformSide()
    const modes = [platform.indy, platform.openId4Vc].filter((mode): mode is Side => mode !== undefined)
    const sides = [agentOnly, platform, ...modes]
    if (WARMUP > 0) for (const target of sides) await iterations(target, WARMUP)
    // Each round runs every side, in the reverse order of the round before (ABBA), so a change of the machine's load
    // falls on all sides alike.
    for (let index = 0; index < rounds; index++) {
      const count = Math.floor(ITERATIONS / rounds) + (index < ITERATIONS % rounds ? 1 : 0)
      for (const target of index % 2 === 0 ? sides : [...sides].reverse()) await round(target, count)
    }
    for (const target of sides) {
      stepTable(target.title, target.results, target.wallMs)
      console.log(cpuLine(target))
      if (target.apiMetricsNow) {
        const perIteration = ((target.apiMetrics.statements ?? 0) / target.results.length).toFixed(1)
        console.log(`the API's statements per iteration: ${perIteration} (its metric; begin and commit not counted)`)
        console.log(apiHopsLine(target))
      }
      console.log(`iterations/minute by round: ${target.roundRates.map((rate) => rate.toFixed(0)).join(' / ')}`)
      await target.report?.()
    }
    const delivered = await platform.delivered()
    const perMinute = (target: Side) => (target.results.length / target.wallMs) * 60_000
    console.log(`\nevery event delivered: ${delivered ? 'yes' : 'NO'}; load after ${loadavg()[0].toFixed(2)}`)
    if (platform.indy) {
      console.log(
        `INDY iterations/minute: ${perMinute(platform.indy).toFixed(0)} (JSON-LD ${perMinute(platform).toFixed(0)} in the same run)`,
      )
    }
    if (platform.openId4Vc) {
      console.log(
        `OpenID4VC iterations/minute: ${perMinute(platform.openId4Vc).toFixed(0)} (DIDComm JSON-LD ${perMinute(platform).toFixed(0)} in the same run)`,
      )
    }
    console.log(
      `iterations/minute: ${perMinute(platform).toFixed(0)} (agent-only ${perMinute(agentOnly).toFixed(0)}, ratio ${(perMinute(platform) / perMinute(agentOnly)).toFixed(2)})`,
    )
  } finally {
    await platform?.tearDown()
    await agentOnly.tearDown()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
