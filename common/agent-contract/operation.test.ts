import { defineOperation, operationPath, pathParamNames, shape } from './operation'
import { ADMIN_OPERATION_KINDS, ADMIN_OPERATIONS, mergeOperationKinds } from './operations'

describe('defineOperation', () => {
  it('answers 201 to POST and 200 otherwise, OK by default, with the API key by default', () => {
    const post = defineOperation({ name: 'a', method: 'POST', path: '/a', result: shape<string>(), summary: 's' })
    const get = defineOperation({ name: 'b', method: 'GET', path: '/b', result: shape<string>(), summary: 's' })
    expect([post.status, get.status]).toEqual([201, 200])
    expect(post).toMatchObject({ message: 'OK', access: 'api-key', hasBody: false, hasQuery: false, errors: {} })
  })
})

describe('paths', () => {
  it('names the parameters of a template in order', () => {
    expect(pathParamNames('/a/:first/b/:second_id')).toEqual(['first', 'second_id'])
    expect(pathParamNames('/a')).toEqual([])
  })

  it('puts each parameter in one percent-encoded segment', () => {
    const operation = { name: 'getSchema', path: '/anoncreds/schemas/:schemaId' }
    expect(operationPath(operation, { schemaId: 'did:x:2:name with space:1.0/..' })).toBe(
      '/anoncreds/schemas/did%3Ax%3A2%3Aname%20with%20space%3A1.0%2F..',
    )
    expect(() => operationPath(operation, {})).toThrow('getSchema needs the path parameter schemaId')
  })
})

describe('the operations', () => {
  it('are keyed by their names, unique across kinds, and each method and path is declared once', () => {
    const all = Object.values(ADMIN_OPERATION_KINDS).flatMap((kind) => Object.entries(kind))
    for (const [key, operation] of all) expect(operation.name).toBe(key)
    expect(Object.keys(ADMIN_OPERATIONS)).toHaveLength(all.length)
    const routes = all.map(([, operation]) => `${operation.method} ${operation.path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })

  it('refuses two kinds declaring one name', () => {
    const twice = defineOperation({ name: 'x', method: 'GET', path: '/x', result: shape<string>(), summary: 's' })
    expect(() => mergeOperationKinds({ a: { x: twice }, b: { x: twice } })).toThrow(
      'Admin operation x of b is declared twice',
    )
  })

  it('declare a body only where a POST, PUT or PATCH carries one, and only the readiness probe is public', () => {
    const operations = Object.values(ADMIN_OPERATIONS)
    for (const operation of operations) {
      if (operation.hasBody) expect(['POST', 'PUT', 'PATCH']).toContain(operation.method)
    }
    expect(operations.filter((operation) => operation.access === 'public').map((operation) => operation.name)).toEqual([
      'getStatus',
    ])
  })
})
