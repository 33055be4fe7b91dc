import { InvalidInputError, silentLogger } from '@idplane/common'
import type { Config } from '../../infra/config'
import type { QueueMessage } from '../../infra/queue/queue'
import { CRED_DEF_JOB_ATTEMPTS, CredDefsService, type CredDefJob } from './cred-defs.service'
import type { CredentialDefinition } from './credential-definition.entity'
import type { RevocationSetup } from './revocation-setup'

const LEDGER_ID = 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/7/default'

/** The definition job with a fake repository, agent and revocation setup (what the job asks of each). */
function jobWith(revocable: boolean, setup: RevocationSetup['ensureFirstRegistry'] | undefined) {
  const definition = {
    id: 'def-1',
    organization: { id: 'org-1' },
    status: 'creating',
    execution: 1,
    revocable,
    tag: 'default',
    schemaLedgerId: 'Th7MpTaRZVRYnPiabds81Y:2:member:1.0',
    schemaDidIndyId: 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/SCHEMA/member/1.0',
    publisherDid: 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y',
  } as unknown as CredentialDefinition
  const created: Record<string, unknown>[] = []
  const agent = {
    withTimeout: () => agent,
    listAnonCredsCredentialDefinitions: async () => [],
    createAnonCredsCredentialDefinition: async (body: Record<string, unknown>) => {
      created.push(body)
      return { credentialDefinitionId: LEDGER_ID }
    },
  }
  const repository = {
    inOwnContext: (work: () => Promise<unknown>) => work(),
    transactional: (work: () => Promise<unknown>) => work(),
    findById: async () => definition,
    lock: async () => definition,
    flush: async () => undefined,
  }
  const timer = () => () => undefined
  const metrics = { jobDuration: { startTimer: timer }, jobs: { inc: () => undefined } }
  const service = new CredDefsService(
    repository as never,
    {} as never,
    { forOrg: async () => agent } as never,
    {} as never,
    {} as never,
    {} as never,
    metrics as never,
    { queue: { namePrefix: '' } } as Config,
    silentLogger,
    setup ? { ensureFirstRegistry: setup } : undefined,
  )
  const run = (attempt = 1) =>
    service.handle({
      payload: { credDefId: 'def-1', orgId: 'org-1', execution: 1 },
      attempt,
    } as QueueMessage<CredDefJob>)
  return { definition, created, run }
}

describe('the credential definition job', () => {
  it('makes a revocable definition with revocation keys and its first registry before it is created', async () => {
    const calls: string[] = []
    const job = jobWith(true, async (_agent, definition, id) => {
      calls.push(`${definition.id} ${id}`)
    })
    await job.run()
    expect(job.created).toEqual([expect.objectContaining({ supportRevocation: true })])
    expect(calls).toEqual([`def-1 ${LEDGER_ID}`])
    expect(job.definition.status).toBe('created')
  })

  it('makes a definition that is not revocable without revocation keys or registry', async () => {
    const setup = jest.fn()
    const job = jobWith(false, setup)
    await job.run()
    expect(job.created).toEqual([expect.not.objectContaining({ supportRevocation: expect.anything() })])
    expect(setup).not.toHaveBeenCalled()
    expect(job.definition.status).toBe('created')
  })

  it('marks the definition failed when its registry is refused, and retries one that failed for a while', async () => {
    const refused = jobWith(true, async () => {
      throw new InvalidInputError('The credential definition does not support revocation')
    })
    await refused.run()
    expect(refused.definition).toMatchObject({ status: 'failed', error: expect.stringMatching(/support revocation/) })

    const away = jobWith(true, async () => {
      throw new Error('the ledger is away')
    })
    await expect(away.run(1)).rejects.toThrow('the ledger is away')
    expect(away.definition.status).toBe('creating')
    await away.run(CRED_DEF_JOB_ATTEMPTS)
    expect(away.definition).toMatchObject({ status: 'failed', error: 'the ledger is away' })
  })

  it('fails a revocable definition in a process without revocation registries rather than create it without', async () => {
    const job = jobWith(true, undefined)
    await job.run(CRED_DEF_JOB_ATTEMPTS)
    expect(job.definition).toMatchObject({ status: 'failed', error: expect.stringMatching(/not available/) })
  })
})

describe('creating a credential definition', () => {
  /** The service with a repository that knows one live definition of `member` 1.0 tagged `default`. */
  function serviceWithLiveDefinition() {
    const asked: string[] = []
    const repository = {
      hasLive: async (orgId: string, schemaLedgerId: string, tag: string) =>
        orgId === 'org-1' && schemaLedgerId === 'Th7MpTaRZVRYnPiabds81Y:2:member:1.0' && tag === 'default',
    }
    const agents = {
      forOrg: async () => {
        asked.push('agent')
        throw new Error('The agent is restarting')
      },
    }
    const service = new CredDefsService(
      repository as never,
      {} as never,
      agents as never,
      {} as never,
      {} as never,
      {} as never,
      {} as never,
      { queue: { namePrefix: '' } } as Config,
      silentLogger,
      undefined,
    )
    const create = (schemaLedgerId: string, tag: string) =>
      service.create('org-1', { userId: 'user-1' } as never, { schemaLedgerId, tag })
    return { asked, create }
  }

  it('answers a repeated request with a conflict from its records, without asking the agent (in either id form)', async () => {
    const { asked, create } = serviceWithLiveDefinition()
    await expect(create('Th7MpTaRZVRYnPiabds81Y:2:member:1.0', 'default')).rejects.toThrow(/already exists/)
    await expect(
      create('did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/SCHEMA/member/1.0', 'default'),
    ).rejects.toThrow(/already exists/)
    expect(asked).toEqual([])
    // Another tag goes on to the agent.
    await expect(create('Th7MpTaRZVRYnPiabds81Y:2:member:1.0', 'other')).rejects.toThrow('The agent is restarting')
    expect(asked).toEqual(['agent'])
  })
})
