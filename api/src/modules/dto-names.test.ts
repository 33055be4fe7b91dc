import 'reflect-metadata'
import { getMetadataStorage } from 'class-validator'
import { declaredSchemaNames } from '../infra/http/data-schema'
import { API_MODULES } from '.'

/** Classes carrying class-validator metadata (DTOs, queries, path parameters), by class name. */
function dtoClassesByName(): Map<string, Set<unknown>> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }
  const byName = new Map<string, Set<unknown>>()
  for (const target of storage.validationMetadatas.keys()) {
    if (typeof target !== 'function') continue
    const classes = byName.get(target.name) ?? new Set()
    byName.set(target.name, classes.add(target))
  }
  return byName
}

describe('schema names of the OpenAPI document', () => {
  it('has DTO class names unique across modules (the OpenAPI document names its schemas by class name)', () => {
    expect(API_MODULES.length).toBeGreaterThan(0)
    // Two classes of one name become one schema in /api-json: one route is then documented with the other's fields
    // (the organization members list once required the ecosystem members list's `ecosystemId`).
    const duplicated = [...dtoClassesByName()].filter(([, classes]) => classes.size > 1).map(([name]) => name)
    expect(duplicated).toEqual([])
  })

  it('has response schema names unique, and none the name of a DTO class', () => {
    const declared = declaredSchemaNames()
    expect(declared.size).toBeGreaterThan(20)
    expect([...declared].filter(([, count]) => count > 1).map(([name]) => name)).toEqual([])
    const dtoNames = new Set(dtoClassesByName().keys())
    expect([...declared.keys()].filter((name) => dtoNames.has(name))).toEqual([])
  })
})
