import 'reflect-metadata'
import { EntityManager } from '@mikro-orm/postgresql'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { CloudWallet } from '../../api/src/modules/cloud-wallet/cloud-wallet.entity'
import { WalletRecord } from '../../api/src/modules/cloud-wallet/wallet-record.entity'
import { WalletRecords } from '../../api/src/modules/cloud-wallet/wallet-records'
import { WalletRecordsRepository } from '../../api/src/modules/cloud-wallet/wallet-records.repository'
import { User } from '../../api/src/modules/users/user.entity'
import { startApi, type TestApi } from '../helpers/api'
import { aMember } from '../helpers/org-fixtures'

// jest ignores testTimeout inside a project; a PGlite start on a busy machine takes longer than 5 s.
jest.setTimeout(90_000)

/*
 * A holder's poll of a record applies the agent's answer to the wallet record. An answer that changes nothing (the
 * ordering rule ignores it) takes no lock and writes nothing; one that changes the row still writes it and
 * announces a new state once.
 */
describe("a cloud wallet's read of an unchanged record", () => {
  let api: TestApi
  let owner: { walletId: string; tenantId: string }
  const rows = () => api.runtime.container.get(EntityManager).fork()
  /** The row's xmin: PostgreSQL gives an updated row a new one. */
  const rowVersion = async (recordId: string) => {
    const [row] = await rows()
      .getConnection()
      .execute<{ xmin: string }[]>('select xmin::text as xmin from wallet_records where record_id = ?', [recordId])
    return row?.xmin
  }

  beforeAll(async () => {
    api = await startApi()
    const user = await aMember(api)
    const em = rows()
    const wallet = em.create(CloudWallet, {
      user: em.getReference(User, user.id),
      email: 'reads@example.test',
      tenantId: 'tenant-reads-1',
      label: 'Reads wallet',
    })
    await em.flush()
    owner = { walletId: wallet.id, tenantId: wallet.tenantId }
  })

  afterAll(async () => {
    jest.restoreAllMocks()
    await api?.stop()
  })

  it('writes nothing for an unchanged answer, and writes and announces a changed one once', async () => {
    const records = api.runtime.container.get(WalletRecords)
    const locks = jest.spyOn(api.runtime.container.get(WalletRecordsRepository), 'lockOrCreate')
    const published = jest.spyOn(api.runtime.container.get(ModuleRegistry), 'publish')
    /** The wallet's events published so far (other work of the API may publish too). */
    const announced = () =>
      published.mock.calls.flatMap(([events]) => events.filter((event) => event.tenantId === owner.tenantId))
    const offered = {
      id: 'cred-read-1',
      state: 'offer-received',
      connectionId: 'conn-1',
      threadId: 'thread-1',
      createdAt: '2026-11-28T12:00:00.000Z',
      updatedAt: '2026-11-28T12:00:00.000Z',
    }

    expect(await records.applyAnswered(owner, 'credential', offered)).toBe('insert')
    expect(locks).toHaveBeenCalledTimes(1)
    expect(announced()).toHaveLength(1)
    const inserted = await rowVersion('cred-read-1')
    expect(inserted).toBeDefined()

    // The same answer again: no lock, no write, no event.
    expect(await records.applyAnswered(owner, 'credential', { ...offered })).toBe('ignore')
    expect(locks).toHaveBeenCalledTimes(1)
    expect(announced()).toHaveLength(1)
    expect(await rowVersion('cred-read-1')).toBe(inserted)

    // A new state: written and announced once.
    const requested = { ...offered, state: 'request-sent', updatedAt: '2026-11-28T12:01:00.000Z' }
    expect(await records.applyAnswered(owner, 'credential', requested)).toBe('advance')
    expect(locks).toHaveBeenCalledTimes(2)
    expect(announced()).toHaveLength(2)
    expect(announced()[1]).toEqual(expect.objectContaining({ type: 'credential.state-changed', orgId: null }))
    const advanced = await rowVersion('cred-read-1')
    expect(advanced).not.toBe(inserted)

    // Repeats and a late older answer: nothing.
    expect(await records.applyAnswered(owner, 'credential', requested)).toBe('ignore')
    expect(await records.applyAnswered(owner, 'credential', { ...offered })).toBe('ignore')
    expect(locks).toHaveBeenCalledTimes(2)
    expect(announced()).toHaveLength(2)
    expect(await rowVersion('cred-read-1')).toBe(advanced)

    // Newer data of the same state is a change without a new state: written, not announced.
    const refreshed = { ...requested, updatedAt: '2026-11-28T12:02:00.000Z', threadId: 'thread-2' }
    expect(await records.applyAnswered(owner, 'credential', refreshed)).toBe('refresh')
    expect(locks).toHaveBeenCalledTimes(3)
    expect(announced()).toHaveLength(2)
    expect(await rowVersion('cred-read-1')).not.toBe(advanced)
    const [stored] = await rows().find(WalletRecord, { wallet: owner.walletId, recordId: 'cred-read-1' })
    expect(stored).toEqual(expect.objectContaining({ state: 'request-sent', threadId: 'thread-2' }))
    expect(stored.record).toEqual(refreshed)
  })
})
