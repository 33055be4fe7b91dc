import { randomBytes } from 'node:crypto'

import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'
import { spawnAgent, waitUntil, type SpawnedAgent, type SpawnOptions } from '../helpers/agent-process'
import { buildPrograms } from '../helpers/build-programs'
import { testAgentSchema } from '../helpers/test-schema'

jest.setTimeout(900_000)

type Rec = Record<string, unknown> & { id: string; state: string; threadId: string; errorMessage?: string }

/**
 * The storage of both paths: PGlite by default, PostgreSQL (a schema per agent) when DATABASE_URL is set. The same
 * schema or data directory is given to the restarted agent.
 */
function storageEnv(label: string): Record<string, string> {
  const url = process.env.DATABASE_URL
  if (!url) return {}
  return {
    AGENT_DATABASE_URL: url,
    AGENT_DATABASE_SCHEMA: testAgentSchema(`${label}_${randomBytes(4).toString('hex')}`),
  }
}

/**
 * Issue 23 item 6 with real agent processes: the issuer's agent is SIGKILLed after the holder's record reached
 * `offer-received` and started again on the same storage and ports; the holder's accept (made while the issuer is
 * down) is kept in the holder's database and delivered when the issuer is back, and both records end `done`. An
 * exchange whose answer never comes ends `abandoned` with its reason after AGENT_EXCHANGE_TIMEOUT_SECONDS.
 */
describe(`an organization agent killed mid-exchange (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  const running: SpawnedAgent[] = []
  const start = async (options: SpawnOptions) => {
    const agent = await spawnAgent(options)
    running.push(agent)
    return agent
  }

  beforeAll(() => {
    buildPrograms()
  })

  afterAll(async () => {
    for (const agent of running) await agent.stop()
  }, 120_000)

  /** Connects the holder to the issuer and offers a JSON-LD credential; the holder's record once `offer-received`. */
  async function offerReceived(issuer: SpawnedAgent, holder: SpawnedAgent) {
    const invitation = await issuer.call<{ data: { invitationUrl: string; outOfBandRecord: { id: string } } }>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await holder.call<{ data: { connectionRecord: { id: string } } }>(
      'POST',
      '/oob/receive-invitation-url',
      { invitationUrl: invitation.body.data.invitationUrl, autoAcceptConnection: true, autoAcceptInvitation: true },
    )
    expect(received.status).toBe(201)
    const issuerConnection = await waitUntil(async () => {
      const list = await issuer.call<{ data: Rec[] }>(
        'GET',
        `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
      )
      return list.body.data.find((record) => record.state === 'completed')?.id
    }, 120_000)
    const issuerDid = (await issuer.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })).body.data.did
    const holderDid = (await holder.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })).body.data.did
    const offer = await issuer.call<{ data: Rec }>('POST', '/credentials/offer', {
      connectionId: issuerConnection,
      credential: aDegreeCredential(issuerDid, holderDid),
      options: signingOptions(),
      autoAcceptCredential: 'always',
    })
    expect(offer.status).toBe(201)
    const holderRecord = await waitUntil(async () => {
      const list = await holder.call<{ data: Rec[] }>('GET', `/credentials?threadId=${offer.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    }, 120_000)
    return { issuerRecord: offer.body.data, holderRecord }
  }

  it('completes the exchange when the killed issuer comes back: credential done on both sides', async () => {
    const issuerOptions: SpawnOptions = { label: 'killed-issuer', env: storageEnv('killed_issuer') }
    // One at a time: on a loaded machine agents starting at once miss their readiness deadline.
    const issuer = await start(issuerOptions)
    const holder = await start({ label: 'patient-holder', env: storageEnv('patient_holder') })
    const { issuerRecord, holderRecord } = await offerReceived(issuer, holder)

    await issuer.stop('SIGKILL')
    const accepted = await holder.call<{ data: Rec }>('POST', '/credentials/accept-offer', {
      credentialRecordId: holderRecord.id,
      autoAcceptCredential: 'always',
    })
    // The request is kept for another attempt: the holder's accept is not a 502.
    expect({ status: accepted.status, state: accepted.body.data.state }).toEqual({ status: 201, state: 'request-sent' })

    const restarted = await start({
      ...issuerOptions,
      dataDir: issuer.dataDir,
      adminPort: Number(new URL(issuer.adminUrl).port),
      inboundPort: Number(new URL(issuer.endpoint).port),
    })
    const holderDone = await waitUntil(async () => {
      const record = (await holder.call<{ data: Rec }>('GET', `/credentials/${holderRecord.id}`)).body.data
      return ['done', 'abandoned'].includes(record.state) ? record : undefined
    }, 300_000)
    expect([holderDone.state, holderDone.errorMessage]).toEqual(['done', undefined])
    const issuerDone = await waitUntil(async () => {
      const record = (await restarted.call<{ data: Rec }>('GET', `/credentials/${issuerRecord.id}`)).body.data
      return record.state === 'done' ? record : undefined
    }, 120_000)
    expect(issuerDone.state).toBe('done')
  })

  it('ends an exchange with no answer past AGENT_EXCHANGE_TIMEOUT_SECONDS as abandoned, with its reason', async () => {
    const issuer = await start({ label: 'vanishing-issuer', env: storageEnv('vanishing_issuer') })
    const holder = await start({
      label: 'timed-holder',
      env: { ...storageEnv('timed_holder'), AGENT_EXCHANGE_TIMEOUT_SECONDS: '5' },
    })
    const { holderRecord } = await offerReceived(issuer, holder)
    await issuer.stop('SIGKILL')
    expect(
      (await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: holderRecord.id })).status,
    ).toBe(201)
    const ended = await waitUntil(async () => {
      const record = (await holder.call<{ data: Rec }>('GET', `/credentials/${holderRecord.id}`)).body.data
      return record.state === 'abandoned' ? record : undefined
    }, 120_000)
    expect(ended.errorMessage).toMatch(/No answer from the other agent for 5 seconds in state request-sent/)
  })
})
