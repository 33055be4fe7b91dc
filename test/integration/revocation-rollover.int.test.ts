import { randomUUID } from 'node:crypto'
import { silentLogger } from '@idplane/common'
import type { ResolvedCredentialDefinition } from '@idplane/common/agent-contract/admin-api'

import type { AgentClient } from '../../api/src/agent-client/agent-client'
import type { AgentClients } from '../../api/src/agent-client/agent-clients'
import { Database } from '../../api/src/infra/db/database'
import { factoryClassKey } from '../../api/src/infra/tokens'
import { CredDefsRepository } from '../../api/src/modules/cred-defs/cred-defs.repository'
import { indyPlan } from '../../api/src/modules/credentials/agent-offers'
import { RevocableOffers } from '../../api/src/modules/credentials/revocable-offers'
import { RevocationRegistriesRepository } from '../../api/src/modules/revocations/revocation-registries.repository'
import { RevocationRegistries } from '../../api/src/modules/revocations/revocation-registries.service'
import { StatusLists } from '../../api/src/modules/status-lists/status-lists.service'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const DID = 'Th7MpTaRZVRYnPiabds81Y'

/** An agent whose registries are made in `delayMs`, named reg-1, reg-2, ...; `failures` first attempts fail. */
function fakeAgents(delayMs: number, failures = 0) {
  const made: string[] = []
  let calls = 0
  const agent = {
    withTimeout: () => agent,
    createRevocationRegistry: async (body: { credentialDefinitionId: string; maximumCredentialNumber: number }) => {
      calls += 1
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      if (calls <= failures) throw new Error('the ledger is away')
      const id = `${body.credentialDefinitionId}/reg-${made.length + 1}-${randomUUID().slice(0, 4)}`
      made.push(id)
      return { revocationRegistryDefinitionId: id }
    },
  }
  const agents = { forOrg: async () => agent as unknown as AgentClient } as unknown as AgentClients
  return { agents, agent: agent as unknown as AgentClient, made, calls: () => calls }
}

/**
 * Issue 25 item 3, the API's rollover: an INDY offer against a revocable definition gets a registry index through
 * RevocableOffers; concurrent offers on a registry of 8 (indices 1 to 7) never share an index, and the next registry
 * is made ahead of need, once per registry (the claim on its row), not once per offer. The agent is a fake one (its
 * registries are what the real one answers, tested in anoncreds-revocation-agents); the database is real.
 * DATABASE_URL chooses PostgreSQL (its pool runs the offers really concurrently).
 */
describe(`revocation registry rollover (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let api: TestApi
  let orgId: string
  let repository: RevocationRegistriesRepository
  let credDefs: CredDefsRepository

  const sql = <T = unknown>(query: string, params: unknown[] = []) =>
    api.runtime.container.get(factoryClassKey(Database)).orm.em.fork().getConnection().execute<T[]>(query, params)

  /** A created revocable definition of the organization; its record id and legacy ledger id. */
  async function revocableDefinition(tag: string): Promise<{ id: string; ledgerId: string }> {
    const id = randomUUID()
    const ledgerId = `${DID}:3:CL:7:${tag}`
    await sql(
      `insert into credential_definitions (id, created_at, updated_at, organization_id, tag, schema_ledger_id, revocable, publisher_did, credential_definition_id, status)
       values (?, now(), now(), ?, ?, '${DID}:2:member:1.0', true, 'did:indy:idplane:${DID}', ?, 'created')`,
      [id, orgId, tag, ledgerId],
    )
    return { id, ledgerId }
  }

  function servicesWith(agents: AgentClients, registrySize?: number) {
    const config =
      registrySize === undefined
        ? api.config
        : {
            ...api.config,
            sections: { ...api.config.sections, revocations: { registrySize, registryTimeoutMs: 120_000 } },
          }
    const registries = new RevocationRegistries(repository, credDefs, agents, config, silentLogger)
    return { registries, offers: new RevocableOffers(registries, api.runtime.container.get(StatusLists)) }
  }

  async function firstRegistry(registries: RevocationRegistries, agent: AgentClient, id: string) {
    await credDefs.inOwnContext(async () => {
      const definition = await credDefs.findById(id)
      if (!definition) throw new Error('no definition')
      await registries.ensureFirstRegistry(agent, definition, definition.credentialDefinitionId as string)
    })
  }

  const plan = (ledgerId: string, protocolVersion: 'v1' | 'v2' = 'v2') =>
    indyPlan(
      {
        credentialDefinitionId: ledgerId,
        credentialDefinition: { issuerId: DID, schemaId: `${DID}:2:member:1.0`, type: 'CL', tag: 'x' },
        schemaId: `${DID}:2:member:1.0`,
        schema: { name: 'member', version: '1.0', attrNames: ['name'], issuerId: DID },
      } as unknown as ResolvedCredentialDefinition,
      { attributes: [{ name: 'name', value: 'Alice' }] },
      protocolVersion,
    )

  beforeAll(async () => {
    api = await startApi({ REVOCATION_REGISTRY_SIZE: '8' })
    repository = api.runtime.container.get(RevocationRegistriesRepository)
    credDefs = api.runtime.container.get(CredDefsRepository)
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('makes the first registry once, of REVOCATION_REGISTRY_SIZE', async () => {
    const { id } = await revocableDefinition('first')
    const fake = fakeAgents(0)
    const { registries } = servicesWith(fake.agents)
    await firstRegistry(registries, fake.agent, id)
    await firstRegistry(registries, fake.agent, id)
    expect(fake.made).toHaveLength(1)
    const rows = await repository.forCredentialDefinition(orgId, id)
    expect(rows.map((row) => [row.revocationRegistryDefinitionId, row.size, row.state])).toEqual([
      [fake.made[0], 8, 'active'],
    ])
  })

  it('gives 30 concurrent offers on registries of 8 different indices, making each next registry once', async () => {
    const { id, ledgerId } = await revocableDefinition('rollover')
    const fake = fakeAgents(150)
    const { registries, offers } = servicesWith(fake.agents)
    await firstRegistry(registries, fake.agent, id)
    const plans = await Promise.all(
      Array.from({ length: 30 }, () => credDefs.inOwnContext(() => offers.prepare(orgId, plan(ledgerId)))),
    )
    const given = plans.map((made) => {
      const anoncreds = (made.format as Json).credentialFormats.anoncreds
      expect(made.details).toMatchObject({
        revocationRegistryId: anoncreds.revocationRegistryDefinitionId,
        revocationIndex: anoncreds.revocationRegistryIndex,
      })
      expect(anoncreds.revocationRegistryIndex).toBeGreaterThanOrEqual(1)
      expect(anoncreds.revocationRegistryIndex).toBeLessThanOrEqual(7)
      return `${anoncreds.revocationRegistryDefinitionId}#${anoncreds.revocationRegistryIndex}`
    })
    expect(new Set(given).size).toBe(30)
    // 30 indices need 5 registries of 7; one more may be made ahead of need, never one per waiting offer.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const rows = await repository.forCredentialDefinition(orgId, id)
    expect(rows.map((row) => row.revocationRegistryDefinitionId).sort()).toEqual([...fake.made].sort())
    expect(rows.length).toBeGreaterThanOrEqual(5)
    expect(rows.length).toBeLessThanOrEqual(6)
    expect(rows.slice(0, 4).map((row) => [row.state, row.nextIndex])).toEqual(Array(4).fill(['full', 8]))
  })

  it('gives 200 concurrent offers on registries of 100 different indices (issue 25: "200 on a registry of 100")', async () => {
    const { id, ledgerId } = await revocableDefinition('two-hundred')
    const fake = fakeAgents(300)
    const { registries, offers } = servicesWith(fake.agents, 100)
    await firstRegistry(registries, fake.agent, id)
    const plans = await Promise.all(
      Array.from({ length: 200 }, () => credDefs.inOwnContext(() => offers.prepare(orgId, plan(ledgerId)))),
    )
    const given = plans.map((made) => `${made.details.revocationRegistryId}#${made.details.revocationIndex}`)
    expect(new Set(given).size).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const rows = await repository.forCredentialDefinition(orgId, id)
    // 200 indices need three registries of 99; a fourth may be made ahead of need.
    expect(rows.length).toBeGreaterThanOrEqual(3)
    expect(rows.length).toBeLessThanOrEqual(4)
    expect(rows.slice(0, 2).map((row) => [row.size, row.state, row.nextIndex])).toEqual(
      Array(2).fill([100, 'full', 100]),
    )
    expect(rows.map((row) => row.revocationRegistryDefinitionId).sort()).toEqual([...fake.made].sort())
  })

  it('tries again when making the next registry failed (the claim is released), then issues on', async () => {
    const { id, ledgerId } = await revocableDefinition('failing')
    const first = fakeAgents(0)
    await firstRegistry(servicesWith(first.agents).registries, first.agent, id)
    // Every next registry fails once: the offer that finds none free makes it on its own try.
    const fake = fakeAgents(20, 2)
    const { offers } = servicesWith(fake.agents)
    const plans = []
    for (let i = 0; i < 9; i++) plans.push(await credDefs.inOwnContext(() => offers.prepare(orgId, plan(ledgerId))))
    const indices = plans.map((made) => (made.details.revocationIndex as number) + 0)
    expect(indices.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(indices.slice(7)).toEqual([1, 2])
    expect(fake.calls()).toBeGreaterThanOrEqual(3)
    expect(fake.made.length).toBeGreaterThanOrEqual(1)
  })

  it('leaves offers of a definition that is not revocable, or not the organization own, as they are', async () => {
    const fake = fakeAgents(0)
    const { offers } = servicesWith(fake.agents)
    const unknown = plan(`${DID}:3:CL:7:someone-else`)
    expect(await credDefs.inOwnContext(() => offers.prepare(orgId, unknown))).toBe(unknown)
  })

  it('gives an offer over Issue Credential v1 an index as over v2', async () => {
    const { id, ledgerId } = await revocableDefinition('v1')
    const fake = fakeAgents(0)
    const { registries, offers } = servicesWith(fake.agents)
    await firstRegistry(registries, fake.agent, id)
    const made = await credDefs.inOwnContext(() => offers.prepare(orgId, plan(ledgerId, 'v1')))
    expect(made.format).toMatchObject({
      protocolVersion: 'v1',
      credentialFormats: { anoncreds: { revocationRegistryDefinitionId: fake.made[0], revocationRegistryIndex: 1 } },
    })
    expect(made.details).toMatchObject({ revocationRegistryId: fake.made[0], revocationIndex: 1 })
  })
})
