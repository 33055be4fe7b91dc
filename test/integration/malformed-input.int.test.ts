import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { SecretBox } from '../../api/src/infra/crypto/secret-box'
import { factoryClassKey } from '../../api/src/infra/tokens'
import { BASE_WALLET_SCOPE } from '../../api/src/modules/cloud-wallet/base-wallet.entity'
import { CloudWalletsRepository } from '../../api/src/modules/cloud-wallet/cloud-wallets.repository'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  template: string
}

/** Values that have broken parsers before: wrong types, huge numbers, injection-looking strings, prototypes. */
const hostileScalar = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "' or 1=1 --",
    '%00',
    '../../etc/passwd',
    '__proto__',
    '{"$ne":null}',
    'x'.repeat(5000),
    '-1',
    '1e309',
    '1e21',
    '0x10',
  ),
  // NUL characters: PostgreSQL text cannot hold them (issue 8, item 7).
  fc.string({ maxLength: 10 }).map((text) => `${text}\u0000${text}`),
)
/** Bodies that once overflowed the stack or polluted prototypes: deep nesting, `__proto__` keys (issue 8). */
const hostileStructure = fc.oneof(
  fc
    .integer({ min: 65, max: 3000 })
    .map((depth) => JSON.parse(`${'{"name":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown),
  fc.integer({ min: 65, max: 3000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown),
  hostileScalar.map((value) => JSON.parse(`{"name":"x","__proto__":${JSON.stringify(value) ?? 'null'}}`) as unknown),
  hostileScalar.map(
    (value) => JSON.parse(`{"record":{"__proto__":{"polluted":${JSON.stringify(value) ?? 'null'}}}}`) as unknown,
  ),
)
/** Schema-creation bodies whose attribute definitions are hostile: wrong types, bad regexes, nesting, prototypes. */
const hostileSchemaBody = fc.record(
  {
    type: fc.oneof(fc.constantFrom('JSON', 'INDY'), hostileScalar),
    schemaPayload: fc.record(
      {
        schemaName: hostileScalar,
        schemaVersion: hostileScalar,
        schemaType: fc.oneof(fc.constantFrom('NO_LEDGER', 'POLYGON_W3C'), hostileScalar),
        orgDid: hostileScalar,
        attributes: fc.oneof(
          hostileScalar,
          fc.array(
            fc.dictionary(
              fc.constantFrom(
                'attributeName',
                'displayName',
                'schemaDataType',
                'isRequired',
                'pattern',
                'minimum',
                'exclusiveMaximum',
                'multipleOf',
                'minLength',
                'enum',
                'items',
                'properties',
                'required',
                'dependentRequired',
                'additionalProperties',
                '__proto__',
              ),
              fc.oneof(
                hostileScalar,
                fc.constantFrom('string', 'integer', 'array', 'object', '(a+)+$', '[', 'toString'),
                // Patterns that froze the API on a backtracking engine (issue 23), and syntax that needs one.
                fc.constantFrom(
                  '((a+))+$',
                  '(a|a)+$',
                  '(a|a?)+$',
                  '^(a|b|ab)*c$',
                  '(a?){30}a{30}',
                  '(a)\\1',
                  '(?<=a)b',
                  'a{1001}',
                  '(a{100}){100}',
                ),
                fc.json({ maxDepth: 2 }).map((text) => JSON.parse(text) as unknown),
              ),
            ),
            { maxLength: 3 },
          ),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
)
/** INDY proof and issuance bodies with hostile members where the AnonCreds mapping reads them (issue 13, item 6). */
const hostileIndyValue = fc.oneof(
  hostileScalar,
  fc.constantFrom('>=', '<', '=>', '18', '-2147483649', 'name'),
  fc.array(hostileScalar, { maxLength: 3 }),
  fc.json({ maxDepth: 2 }).map((text) => JSON.parse(text) as unknown),
)
const hostileIndyEntry = fc.dictionary(
  fc.constantFrom(
    'attributeName',
    'attributeNames',
    'schemaId',
    'credDefId',
    'condition',
    'value',
    'name',
    'names',
    'restrictions',
    'p_type',
    'p_value',
    'isRequired',
    '__proto__',
  ),
  hostileIndyValue,
)
const hostileIndyBody = fc.record(
  {
    connectionId: fc.oneof(fc.uuid(), fc.array(fc.uuid(), { maxLength: 2 }), hostileScalar),
    credentialDefinitionId: fc.oneof(
      fc.constantFrom('Th7MpTaRZVRYnPiabds81Y:3:CL:1:default', 'did:key:z6Mk'),
      hostileScalar,
    ),
    protocolVersion: fc.oneof(fc.constantFrom('v1', 'v2'), hostileScalar),
    attributes: fc.oneof(fc.array(hostileIndyEntry, { maxLength: 3 }), hostileScalar),
    credentialData: fc.array(
      fc.record({ connectionId: fc.uuid(), attributes: fc.array(hostileIndyEntry, { maxLength: 3 }) }),
      { maxLength: 2 },
    ),
    credentialOffer: fc.array(
      fc.record({ emailId: fc.emailAddress(), attributes: fc.array(hostileIndyEntry, { maxLength: 3 }) }),
      { maxLength: 2 },
    ),
    proofFormats: fc.oneof(
      hostileScalar,
      fc.record(
        {
          indy: fc.oneof(
            hostileScalar,
            fc.record(
              {
                attributes: fc.oneof(fc.array(hostileIndyEntry, { maxLength: 4 }), hostileScalar),
                name: hostileScalar,
                version: hostileScalar,
                requested_attributes: fc.oneof(
                  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(hostileIndyEntry, hostileScalar), { maxKeys: 3 }),
                  hostileScalar,
                ),
                requested_predicates: fc.oneof(
                  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(hostileIndyEntry, hostileScalar), { maxKeys: 3 }),
                  hostileScalar,
                ),
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
)
const hostileJson = fc.oneof(
  fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text) as unknown),
  fc.dictionary(
    fc.constantFrom(
      'name',
      'email',
      'password',
      'status',
      'orgRoleId',
      'invitations',
      'did',
      'id',
      'logo',
      // Connections and messages (modules/connections, modules/messages).
      'invitationUrl',
      'invitation',
      'autoAcceptConnection',
      'acceptInvitationTimeoutMs',
      'routing',
      'messages',
      'question',
      'validResponses',
      'response',
      'content',
      'type',
      'schemaPayload',
      'attributes',
      'schemaName',
      'schemaType',
      // INDY schemas and credential definitions (modules/schemas, modules/cred-defs).
      'schemaVersion',
      'orgDid',
      'tag',
      'schemaLedgerId',
      'revocable',
      'ecosystemId',
      'orgId',
      'orgIds',
      'connectionId',
      'presentationDefinition',
      'proofFormats',
      'emailId',
      'isShortenUrl',
      'credentialData',
      'credentialOffer',
      'credential',
      'options',
      'webhookUrl',
      'webhookSecret',
      'connectionId',
      'emailId',
      'templateId',
      'selectedRows',
      'isSelectiveIssuance',
      'organizationLogoUrl',
      'platformName',
      'clientId',
      'fileName',
      // Cloud wallet (modules/cloud-wallet).
      'walletKey',
      'apiKey',
      'agentEndpoint',
      'label',
      'credentialRecordId',
      'autoAcceptCredential',
      'credentialFormats',
      'proofRecordId',
      'filterByPresentationPreview',
      'keyType',
      'method',
      'seed',
      // The platform ledger (modules/ledger).
      'authorDid',
      'payload',
      'signature',
      'verkey',
      'lastSeqNo',
      '__proto__',
      'constructor',
    ),
    hostileScalar,
  ),
  fc.array(hostileScalar, { maxLength: 4 }),
  hostileStructure,
  hostileSchemaBody,
  hostileIndyBody,
)
const pathSegment = fc.oneof(
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.constantFrom('null', '0', '%E0%A4%A', '..', 'DROP TABLE users', 'nul\u0000byte'),
)
const queryObject = fc.dictionary(
  fc.constantFrom(
    'pageNumber',
    'pageSize',
    'search',
    'role',
    'clientAlias',
    'email',
    'verificationCode',
    'orgId',
    'credentialType',
    'isValidateSchema',
    'templateId',
    'schemaType',
    'searchByText',
    'sortField',
    'sortBy',
    'ecosystemId',
    'status',
    'requestType',
    'tenantId',
    'threadId',
    'connectionId',
    'state',
    'theirLabel',
    'sorting',
    'sortByValue',
    'revocable',
  ),
  hostileScalar.map(String),
  { maxKeys: 4 },
)

function assertErrorShape(res: request.Response, where: string): void {
  if (res.status >= 500) throw new Error(`${where} answered ${res.status}: ${res.text.slice(0, 300)}`)
  const text = res.text ?? ''
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/)
  expect(text).not.toMatch(/<html|<!DOCTYPE/i)
  if (res.status >= 400) {
    expect(res.body).toEqual(
      expect.objectContaining({ statusCode: res.status, message: expect.any(String), error: expect.any(String) }),
    )
    expect(res.body.stack).toBeUndefined()
  }
}

describe('malformed input on every endpoint', () => {
  let api: TestApi
  let routes: Route[]
  let owner: TestUser
  let orgId: string
  let ecosystemId: string

  beforeAll(async () => {
    // On, so that the ecosystem routes parse their input instead of answering 403 at once.
    api = await startApi({ ECOSYSTEM_ENABLED: 'true' })
    const doc = await request(api.app).get('/api-json').expect(200)
    routes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({ method: method as Route['method'], template: path })),
    )
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const ecosystem = await request(api.app)
      .post('/v1/ecosystem')
      .query({ orgId })
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ name: 'Malformed input', description: 'Ecosystem routes reach their services' })
      .expect(201)
    ecosystemId = ecosystem.body.data.id
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('finds routes to exercise', () => {
    expect(routes.length).toBeGreaterThan(5)
  })

  // About 2,000 requests (12 per route), growing with the routes: a minute on a quiet machine, several on a busy one.
  it('never answers 5xx, a stack trace or HTML, with or without a valid owner token', async () => {
    for (const route of routes.filter(
      (candidate) => !/delete/.test(candidate.method) || !candidate.template.endsWith('{orgId}'),
    )) {
      await fc.assert(
        fc.asyncProperty(
          pathSegment,
          queryObject,
          hostileJson,
          fc.boolean(),
          fc.boolean(),
          async (segment, query, body, withToken, realOrg) => {
            const path = route.template.replace(/\{(\w+)\}/g, (_match, name: string) =>
              realOrg && name === 'orgId'
                ? orgId
                : realOrg && name === 'ecosystemId'
                  ? ecosystemId
                  : encodeURIComponent(segment),
            )
            let req = request(api.app)[route.method](path).query(query)
            if (withToken) req = req.set('Authorization', `Bearer ${owner.token}`)
            // Serialised by hand: supertest refuses bare scalars, and scalar JSON bodies are exactly what we want to send.
            const res =
              route.method === 'get' || route.method === 'delete'
                ? await req
                : await req.set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null')
            assertErrorShape(res, `${route.method.toUpperCase()} ${path}`)
          },
        ),
        { numRuns: 12, seed: 20261121 },
      )
    }
  }, 300_000)

  it('never answers 5xx to INDY issuance and proof bodies on the real organization', async () => {
    const indyRoutes = [
      '/v1/orgs/{orgId}/credentials/offer',
      '/v1/orgs/{orgId}/credentials/oob/offer',
      '/v1/orgs/{orgId}/credentials/oob/email',
      '/v1/orgs/{orgId}/proofs',
      '/v2/orgs/{orgId}/proofs',
      '/v1/orgs/{orgId}/proofs/oob',
    ]
    for (const template of indyRoutes) {
      const path = template.replace('{orgId}', orgId)
      await fc.assert(
        fc.asyncProperty(hostileIndyBody, async (body) => {
          const res = await request(api.app)
            .post(path)
            .set('Authorization', `Bearer ${owner.token}`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body))
          assertErrorShape(res, `POST ${path}`)
        }),
        { numRuns: 40, seed: 20261124 },
      )
    }
  })

  it('never answers 5xx on the public routes outside the OpenAPI document', async () => {
    for (const template of ['/schemas/{schemaId}']) {
      await fc.assert(
        fc.asyncProperty(pathSegment, queryObject, async (segment, query) => {
          const path = template.replace('{schemaId}', encodeURIComponent(segment))
          assertErrorShape(await request(api.app).get(path).query(query), `GET ${path}`)
        }),
        { numRuns: 30, seed: 20261124 },
      )
    }
  })

  it('never answers 5xx to ecosystem routes given real ids beside hostile fields', async () => {
    const ecosystemRoutes = routes.filter((route) => route.template.startsWith('/v1/ecosystem'))
    expect(ecosystemRoutes.length).toBe(10)
    const idOrHostile = (real: () => string) => fc.oneof(fc.constant(null).map(real), fc.uuid(), hostileScalar)
    for (const route of ecosystemRoutes) {
      await fc.assert(
        fc.asyncProperty(
          idOrHostile(() => ecosystemId),
          idOrHostile(() => orgId),
          fc.oneof(
            fc.array(
              idOrHostile(() => orgId),
              { maxLength: 3 },
            ),
            hostileScalar,
          ),
          hostileScalar,
          fc.dictionary(
            fc.constantFrom('role', 'status', 'sortBy', 'sortField', 'search', 'pageSize'),
            hostileScalar.map(String),
            {
              maxKeys: 3,
            },
          ),
          async (ecosystem, org, orgIds, status, query) => {
            const path = route.template
              .replace('{ecosystemId}', encodeURIComponent(String(ecosystem)))
              .replace('{orgId}', encodeURIComponent(String(org)))
            const agent = request(api.app)
            const req = agent[route.method](path)
              .query({ ecosystemId: String(ecosystem), orgId: String(org), status: String(status), ...query })
              .set('Authorization', `Bearer ${owner.token}`)
            const res =
              route.method === 'get'
                ? await req
                : await req
                    .set('Content-Type', 'application/json')
                    .send(JSON.stringify({ ecosystemId: ecosystem, orgId: org, orgIds }))
            assertErrorShape(res, `${route.method.toUpperCase()} ${path}`)
          },
        ),
        { numRuns: 25, seed: 20261124 },
      )
    }
  })

  it('answers hostile multipart uploads (any bytes, any parts, any query) with a 4xx, never 5xx', async () => {
    const boundary = 'fuzz-boundary'
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
          fc.string().map((text) => Buffer.from(text)),
        ),
        fc.constantFrom('file', 'fileName', 'other', '__proto__'),
        fc.boolean(),
        queryObject,
        async (content, field, isWellFramed, query) => {
          const framed = Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="x.csv"\r\n\r\n`),
            content,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ])
          const res = await request(api.app)
            .post(`/v1/orgs/${orgId}/bulk/upload`)
            .query({ schemaType: 'W3C', templateId: '3b241101-e2bb-4255-8caf-4136c566a962', ...query })
            .set('Authorization', `Bearer ${owner.token}`)
            .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
            .send(isWellFramed ? framed : content)
          assertErrorShape(res, 'POST bulk/upload')
          expect(res.status).toBeGreaterThanOrEqual(400)
        },
      ),
      { numRuns: 40, seed: 20261124 },
    )
  })

  it('never answers 5xx on the base agent event and NYM routes and the wallet webhook routes of a user with a wallet', async () => {
    // A base wallet and a wallet as rows only: these routes need no agent (the API key is the event token).
    const apiKey = 'malformed-input-base-api-key'
    const container = api.runtime.container
    const box = container.get(factoryClassKey(SecretBox))
    await container.get(CloudWalletsRepository).saveBaseWallet({
      agentEndpoint: 'http://127.0.0.1:9',
      encryptedApiKey: box.seal(apiKey, BASE_WALLET_SCOPE),
      encryptedWalletKey: box.seal('wallet-key', BASE_WALLET_SCOPE),
      configuredBy: null,
    })
    const holder = await aUserWithToken(api)
    const tenantId = randomUUID()
    await container.get(CloudWalletsRepository).create({ userId: holder.id, email: holder.email, tenantId, label: 'H' })
    const hostileEvent = fc.dictionary(
      fc.constantFrom('id', 'kind', 'agentLabel', 'tenantId', 'occurredAt', 'record', 'events', '__proto__'),
      fc.oneof(
        hostileScalar,
        fc.constantFrom('connection', 'credential', 'proof', 'basic-message', tenantId, new Date().toISOString()),
        fc.dictionary(
          fc.constantFrom('id', 'state', 'createdAt', 'updatedAt', 'connectionId', 'threadId', 'role'),
          hostileScalar,
        ),
      ),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileEvent,
          hostileJson,
          fc.array(hostileEvent, { maxLength: 3 }).map((events) => ({ events })),
        ),
        fc.boolean(),
        async (body, withToken) => {
          let req = request(api.app).post(BASE_WALLET_EVENTS_PATH)
          if (withToken) req = req.set('Authorization', `Bearer ${apiKey}`)
          const res = await req.set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null')
          assertErrorShape(res, 'POST wallet agent events')
        },
      ),
      { numRuns: 150, seed: 20261124 },
    )
    for (const [method, path] of [
      ['post', '/v1/webhooks/wallet/register'],
      ['patch', '/v1/webhooks/wallet'],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(hostileJson, queryObject, async (body, query) => {
          const agent = request(api.app)
          const res = await agent[method](path)
            .query(query)
            .set('Authorization', `Bearer ${holder.token}`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body) ?? 'null')
          assertErrorShape(res, `${method.toUpperCase()} ${path}`)
        }),
        { numRuns: 40, seed: 20261124 },
      )
    }
    // The base agent also asks for NYMs with its API key (its tenants' did:indy): hostile NYM requests reach the ledger.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileJson,
          fc.record({ did: hostileScalar, verkey: hostileScalar, signature: hostileScalar }, { requiredKeys: [] }),
        ),
        async (body) => {
          const res = await request(api.app)
            .post('/v1/ledger/nyms')
            .set('Authorization', `Bearer ${apiKey}`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body) ?? 'null')
          assertErrorShape(res, 'POST /v1/ledger/nyms with the base wallet API key')
          expect(res.status).not.toBe(401)
        },
      ),
      { numRuns: 80, seed: 20261124 },
    )
  })

  it('never answers 5xx to ledger writes and reads whose fields are hostile', async () => {
    const did = fc.constantFrom(
      'Th7MpTaRZVRYnPiabds81Y',
      '7Tqg6BwSSWapxgUDm9KKgg',
      'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y',
    )
    const payload = fc.oneof(
      hostileJson,
      fc.record(
        {
          name: hostileScalar,
          version: fc.oneof(fc.constant('1.0'), hostileScalar),
          attrNames: fc.oneof(fc.array(hostileScalar, { maxLength: 4 }), hostileScalar),
          schemaId: fc.oneof(fc.constant('Th7MpTaRZVRYnPiabds81Y:2:a:1.0'), hostileScalar),
          tag: hostileScalar,
          type: fc.oneof(fc.constant('CL'), hostileScalar),
          value: fc.oneof(hostileJson, fc.record({ primary: hostileJson })),
          dest: fc.oneof(did, hostileScalar),
          raw: fc.oneof(hostileJson, fc.record({ endpoint: hostileJson })),
        },
        { requiredKeys: [] },
      ),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom('SCHEMA', 'CRED_DEF', 'ATTRIB', 'NYM', 'REVOC_REG_DEF'), hostileScalar),
        fc.oneof(did, hostileScalar),
        payload,
        fc.oneof(fc.constant('3yZe7d'), hostileScalar),
        pathSegment,
        fc.oneof(fc.nat(), hostileScalar),
        async (type, authorDid, body, signature, segment, lastSeqNo) => {
          const write = await request(api.app)
            .post('/v1/ledger/transactions')
            .set('Content-Type', 'application/json')
            .send(JSON.stringify({ type, authorDid, payload: body, signature, lastSeqNo }))
          assertErrorShape(write, 'POST /v1/ledger/transactions')
          expect(write.status).toBeGreaterThanOrEqual(400)
          for (const route of ['schemas', 'cred-defs', 'dids', 'transactions']) {
            const path = `/v1/ledger/${route}/${encodeURIComponent(segment)}`
            assertErrorShape(await request(api.app).get(path), `GET ${path}`)
          }
          const state = `/v1/ledger/dids/${encodeURIComponent(segment)}/state`
          assertErrorShape(await request(api.app).get(state), `GET ${state}`)
        },
      ),
      { numRuns: 60, seed: 20261124 },
    )
  })

  it('answers schemas with hostile patterns and W3C offers checked against them quickly, never 5xx', async () => {
    const patterns = ['(a+)+$', '((a+))+$', '(a|a)+$', '(a|a?)+$', '^(a|b|ab)*c$', '(a?){30}a{30}']
    const schema = await request(api.app)
      .post(`/v1/orgs/${orgId}/schemas`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        type: 'JSON',
        schemaPayload: {
          schemaName: `Hostile patterns ${randomUUID().slice(0, 6)}`,
          schemaType: 'NO_LEDGER',
          attributes: patterns.map((pattern, index) => ({
            attributeName: `p${index}`,
            displayName: `P${index}`,
            schemaDataType: 'string',
            isRequired: false,
            pattern,
          })),
        },
      })
    assertErrorShape(schema, 'POST schemas')
    expect(schema.status).toBe(201)
    for (const refused of ['(a)\\1', '(?=a)a', '(?<!a)b']) {
      const res = await request(api.app)
        .post(`/v1/orgs/${orgId}/schemas`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({
          type: 'JSON',
          schemaPayload: {
            schemaName: `Refused ${randomUUID().slice(0, 6)}`,
            schemaType: 'NO_LEDGER',
            attributes: [
              { attributeName: 'p', displayName: 'P', schemaDataType: 'string', isRequired: true, pattern: refused },
            ],
          },
        })
      assertErrorShape(res, 'POST schemas')
      expect(res.status).toBe(400)
      expect(res.body.errors[0].message).toMatch(/not supported/)
    }
    for (const [index] of patterns.entries()) {
      for (const value of [
        'a'.repeat(28) + '!',
        'a'.repeat(9_999) + '!',
        'ab'.repeat(4_999) + '!',
        'a'.repeat(10_001),
      ]) {
        const started = performance.now()
        const res = await request(api.app)
          .post(`/v1/orgs/${orgId}/credentials/oob/offer`)
          .query({ credentialType: 'JSONLD' })
          .set('Authorization', `Bearer ${owner.token}`)
          .send({
            credential: {
              '@context': ['https://www.w3.org/2018/credentials/v1'],
              type: ['VerifiableCredential'],
              issuer: 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH',
              issuanceDate: '2024-01-01T00:00:00Z',
              credentialSubject: { [`p${index}`]: value },
              credentialSchema: { id: schema.body.data.schemaLedgerId, type: 'JsonSchemaValidator2018' },
            },
            options: { proofType: 'Ed25519Signature2018', proofPurpose: 'assertionMethod' },
          })
        assertErrorShape(res, `POST credentials/oob/offer p${index}`)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(performance.now() - started).toBeLessThan(1_000)
      }
    }
  })

  it('answers raw non-JSON bodies with 400 or 415, never 5xx', async () => {
    for (const route of routes.filter((candidate) => candidate.method !== 'get')) {
      const path = route.template.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'orgId' ? orgId : 'x'))
      const agent = request(api.app)
      const res = await agent[route.method](path)
        .set('Authorization', `Bearer ${owner.token}`)
        .set('Content-Type', 'application/json')
        .send('{"unterminated": ')
      assertErrorShape(res, `${route.method.toUpperCase()} ${path}`)
    }
  })
})
