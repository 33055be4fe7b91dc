import 'reflect-metadata'
import type { EntityClass, FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { CloudWallet } from '../../api/src/modules/cloud-wallet/cloud-wallet.entity'
import { WalletRecord } from '../../api/src/modules/cloud-wallet/wallet-record.entity'
import { WalletRecords } from '../../api/src/modules/cloud-wallet/wallet-records'
import { BasicMessage } from '../../api/src/modules/messages/basic-message.entity'
import { BasicMessageRecords, QuestionAnswerRecords } from '../../api/src/modules/messages/message-records'
import { QuestionAnswer } from '../../api/src/modules/messages/question-answer.entity'
import { User } from '../../api/src/modules/users/user.entity'
import { CredentialRecord } from '../../api/src/modules/credentials/credential.entity'
import { CredentialRecords } from '../../api/src/modules/credentials/credential-records'
import { startApi, type TestApi } from '../helpers/api'
import { aMember, anOrganization } from '../helpers/org-fixtures'

// jest ignores testTimeout inside a project; a PGlite start on a busy machine takes longer than 5 s.
jest.setTimeout(90_000)

/** How many reports of one new record race to create it. */
const RACERS = 4

/** The decisions of RACERS concurrent applications of one report, sorted: one insert, the others ignored. */
async function racedDecisions(apply: () => Promise<{ decision: string } | null>): Promise<(string | undefined)[]> {
  const outcomes = await Promise.all(Array.from({ length: RACERS }, apply))
  return outcomes.map((outcome) => outcome?.decision).sort()
}

const ONE_INSERT = ['ignore', 'ignore', 'ignore', 'insert']

/*
 * The insert race of the stores that keep JSON columns (question-answer's valid responses, a wallet record's agent
 * JSON): the agent's event and the route's answer of one new record, each in a transaction of its own, both find
 * no row. Every store ends it in one row through its repository's lockOrCreate (BaseRepository.lockOrCreateRow),
 * and the row keeps the JSON as the agent sent it. On PostgreSQL the transactions truly overlap; on PGlite they
 * take turns on its one connection.
 */
describe('the insert race of message and cloud-wallet records', () => {
  let api: TestApi
  let orgId: string
  let userId: string
  const rows = () => api.runtime.container.get(EntityManager).fork()

  /** The one row `where` finds: the race made exactly one. */
  async function onlyRow<T extends object>(entity: EntityClass<T>, where: FilterQuery<T>): Promise<T> {
    const found = await rows().find(entity, where as never)
    expect(found).toHaveLength(1)
    return found[0]
  }

  beforeAll(async () => {
    api = await startApi()
    const owner = await aMember(api)
    userId = owner.id
    orgId = (await anOrganization(api, owner.token)).id
  })

  afterAll(async () => {
    await api?.stop()
  })

  const createdAt = '2026-11-28T12:00:00.000Z'

  it('makes one question-answer row of concurrent reports, with its valid responses', async () => {
    const records = api.runtime.container.get(QuestionAnswerRecords)
    const question = {
      id: 'qa-race-1',
      state: 'question-received',
      connectionId: 'conn-1',
      role: 'responder',
      questionText: 'Shall we?',
      questionDetail: 'A detail',
      validResponses: [{ text: 'Yes' }, { text: 'No', extra: 'dropped' }, 'not an object'],
      createdAt,
      updatedAt: createdAt,
    }
    expect(await racedDecisions(() => records.applyAnswered(orgId, { ...question }))).toEqual(ONE_INSERT)
    const stored = await onlyRow(QuestionAnswer, { organization: orgId, questionAnswerId: 'qa-race-1' })
    expect(stored).toEqual(
      expect.objectContaining({
        state: 'question-received',
        questionText: 'Shall we?',
        questionDetail: 'A detail',
        validResponses: [{ text: 'Yes' }, { text: 'No' }],
        agentCreatedAt: new Date(createdAt),
      }),
    )
  })

  it('makes one basic-message row of concurrent reports', async () => {
    const records = api.runtime.container.get(BasicMessageRecords)
    const message = {
      id: 'bm-race-1',
      connectionId: 'conn-1',
      role: 'receiver',
      content: 'Hello "quoted" {json-like} text',
      sentTime: createdAt,
      createdAt,
    }
    const decisions = await racedDecisions(() => records.applyAnswered(orgId, { ...message }))
    expect(decisions.filter((decision) => decision === 'insert')).toHaveLength(1)
    const stored = await onlyRow(BasicMessage, { organization: orgId, messageId: 'bm-race-1' })
    expect(stored).toEqual(
      expect.objectContaining({ role: 'receiver', content: 'Hello "quoted" {json-like} text', sentTime: createdAt }),
    )
  })

  it("makes one wallet record of concurrent reports, keeping the agent's JSON as sent", async () => {
    const em = rows()
    const wallet = em.create(CloudWallet, {
      user: em.getReference(User, userId),
      email: 'race@example.test',
      tenantId: 'tenant-race-1',
      label: 'Race wallet',
    })
    await em.flush()
    const records = api.runtime.container.get(WalletRecords)
    const credential = {
      id: 'cred-race-1',
      state: 'offer-received',
      connectionId: 'conn-1',
      threadId: 'thread-1',
      createdAt,
      updatedAt: createdAt,
      credentialAttributes: [
        { name: 'name', value: 'Alice' },
        { name: 'note', value: 'quotes " and \\ and unicode é' },
      ],
      metadata: { nested: { list: [1, 2, 3], flag: true, empty: null } },
    }
    const owner = { walletId: wallet.id, tenantId: wallet.tenantId }
    const outcomes = await Promise.all(
      Array.from({ length: RACERS }, () => records.applyAnswered(owner, 'credential', { ...credential })),
    )
    expect(outcomes.filter((outcome) => outcome === 'insert')).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome !== 'insert')).toEqual(Array(RACERS - 1).fill('ignore'))
    const stored = await onlyRow(WalletRecord, { wallet: wallet.id, kind: 'credential', recordId: 'cred-race-1' })
    expect(stored).toEqual(
      expect.objectContaining({ state: 'offer-received', connectionId: 'conn-1', threadId: 'thread-1' }),
    )
    expect(stored.record).toEqual(credential)
  })

  it('writes a new issuance record whole in its insert, and makes one row of concurrent reports', async () => {
    // Every statement the API sends, its own and MikroORM's, passes the ORM's `onQuery` hook (the statement metric).
    const config = api.runtime.container.get(EntityManager).config
    const onQuery = config.get('onQuery')
    const statements: string[] = []
    config.set('onQuery', (sql: string, params: readonly unknown[]) => {
      statements.push(sql)
      return onQuery(sql, params)
    })
    try {
      const records = api.runtime.container.get(CredentialRecords)
      const offer = {
        id: 'issuance-race-1',
        state: 'offer-sent',
        role: 'issuer',
        connectionId: 'conn-1',
        threadId: 'thread-issuance-1',
        protocolVersion: 'v2',
        createdAt,
        updatedAt: createdAt,
      }
      const details = { credentialType: 'JSONLD' as const, emailId: 'holder@example.test' }
      expect(await racedDecisions(() => records.applyAnswered(orgId, { ...offer }, details))).toEqual(ONE_INSERT)
      const stored = await onlyRow(CredentialRecord, { organization: orgId, credentialRecordId: 'issuance-race-1' })
      expect(stored).toEqual(
        expect.objectContaining({
          state: 'offer-sent',
          role: 'issuer',
          connectionId: 'conn-1',
          threadId: 'thread-issuance-1',
          protocolVersion: 'v2',
          credentialType: 'JSONLD',
          emailId: 'holder@example.test',
          agentUpdatedAt: new Date(createdAt),
        }),
      )
      // The insert carried every fact of the report: no racer updated the row after it.
      // (PGlite runs the transactions in turn, so later racers find the row and do not try to insert.)
      expect(statements.filter((sql) => sql.startsWith('insert into "issuance_records"')).length).toBeGreaterThan(0)
      expect(statements.filter((sql) => sql.startsWith('update "issuance_records"'))).toEqual([])
    } finally {
      config.set('onQuery', onQuery)
    }
  })
})
