import { randomUUID } from 'node:crypto'

import { Database } from '../../api/src/infra/db/database'
import { factoryClassKey } from '../../api/src/infra/tokens'
import { RevocationRegistriesRepository } from '../../api/src/modules/revocations/revocation-registries.repository'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

/**
 * Issue 25 item 3, the API's index allocation: concurrent allocations on a registry never share an index, a full
 * registry hands over to the next active one, and none is left when all are full. DATABASE_URL chooses PostgreSQL
 * (its pool runs the allocations really concurrently); PGlite runs them one statement at a time.
 */
describe(`revocation registry indices (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let api: TestApi
  let repository: RevocationRegistriesRepository
  let orgId: string
  let credDefId: string

  const sql = <T = unknown>(query: string, params: unknown[] = []) =>
    api.runtime.container.get(factoryClassKey(Database)).orm.em.fork().getConnection().execute<T[]>(query, params)

  beforeAll(async () => {
    api = await startApi()
    repository = api.runtime.container.get(RevocationRegistriesRepository)
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    credDefId = randomUUID()
    await sql(
      `insert into credential_definitions (id, created_at, updated_at, organization_id, tag, schema_ledger_id, revocable, publisher_did, credential_definition_id, status)
       values (?, now(), now(), ?, 'revocable', 'Th7MpTaRZVRYnPiabds81Y:2:member:1.0', true, 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y', 'Th7MpTaRZVRYnPiabds81Y:3:CL:7:revocable', 'created')`,
      [credDefId, orgId],
    )
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('gives 60 concurrent offers 60 different indices across two registries, then none', async () => {
    const first = await repository.add(orgId, {
      credentialDefinitionId: credDefId,
      revocationRegistryDefinitionId: 'registry-1',
      size: 41,
    })
    await repository.add(orgId, {
      credentialDefinitionId: credDefId,
      revocationRegistryDefinitionId: 'registry-2',
      size: 21,
    })
    const allocated = await Promise.all(Array.from({ length: 60 }, () => repository.allocateIndex(orgId, credDefId)))
    const given = allocated.map((entry) => {
      if (!entry) throw new Error('an allocation found no registry')
      return `${entry.revocationRegistryDefinitionId}#${entry.index}`
    })
    expect(new Set(given).size).toBe(60)
    const indices = (id: string) =>
      allocated
        .filter((entry) => entry?.revocationRegistryDefinitionId === id)
        .map((entry) => entry?.index)
        .sort((a, b) => Number(a) - Number(b))
    expect(indices('registry-1')).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(indices('registry-2')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(
      allocated
        .filter((entry) => entry?.isLast)
        .map((entry) => entry?.revocationRegistryDefinitionId)
        .sort(),
    ).toEqual(['registry-1', 'registry-2'])
    expect(await repository.allocateIndex(orgId, credDefId)).toBeUndefined()
    const registries = await repository.forCredentialDefinition(orgId, credDefId)
    expect(registries.map((registry) => [registry.id === first.id, registry.state, registry.nextIndex])).toEqual([
      [true, 'full', 41],
      [false, 'full', 21],
    ])
  })

  it("never allocates another organization's registry", async () => {
    expect(await repository.allocateIndex(randomUUID(), credDefId)).toBeUndefined()
  })
})
