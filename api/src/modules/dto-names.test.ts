import 'reflect-metadata'
import { getMetadataStorage } from 'class-validator'
import { API_MODULES } from '.'

describe('DTO classes of the API', () => {
  it('have names unique across modules (the OpenAPI document names its schemas by class name)', () => {
    expect(API_MODULES.length).toBeGreaterThan(0)
    // Two classes of one name become one schema in /api-json: one route is then documented with the other's fields
    // (the organization members list once required the ecosystem members list's `ecosystemId`).
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }
    const byName = new Map<string, Set<unknown>>()
    for (const target of storage.validationMetadatas.keys()) {
      if (typeof target !== 'function') continue
      const classes = byName.get(target.name) ?? new Set()
      byName.set(target.name, classes.add(target))
    }
    const duplicated = [...byName].filter(([, classes]) => classes.size > 1).map(([name]) => name)
    expect(duplicated).toEqual([])
  })
})
