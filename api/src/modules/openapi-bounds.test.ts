import 'reflect-metadata'
import { getMetadataArgsStorage, type RoutingControllersOptions } from 'routing-controllers'
import { parseRoutes, getFullPath } from 'routing-controllers-openapi'
import { getMetadataStorage } from 'class-validator'
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata'
import type { OperationObject, ParameterObject, ReferenceObject, SchemaObject } from 'openapi3-ts'
import { buildOpenApiDocument } from '../infra/http/openapi'
import { controllersOf } from '../infra/module-registry'
import { API_MODULES } from '.'

type Bound = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'
type Bounds = Partial<Record<Bound, number>>

/** Which validators bound what, and whether the bound is a lower one (the strictest wins: max) or an upper one. */
const RULES: Record<string, (constraints: unknown[]) => Bounds> = {
  isNotEmpty: () => ({ minLength: 1 }),
  isLength: ([min, max]) => ({ minLength: min as number, ...(typeof max === 'number' ? { maxLength: max } : {}) }),
  minLength: ([min]) => ({ minLength: min as number }),
  maxLength: ([max]) => ({ maxLength: max as number }),
  min: ([min]) => ({ minimum: min as number }),
  max: ([max]) => ({ maximum: max as number }),
  arrayMinSize: ([min]) => ({ minItems: min as number }),
  arrayMaxSize: ([max]) => ({ maxItems: max as number }),
  arrayNotEmpty: () => ({ minItems: 1 }),
}
const LOWER: ReadonlySet<Bound> = new Set(['minLength', 'minimum', 'minItems'])

/** The bounds class-validator enforces on each property of a class (`each` bounds on the items), inherited included. */
function enforcedBounds(target: new () => unknown): Map<string, { own: Bounds; items: Bounds }> {
  const metadatas: ValidationMetadata[] = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)
  const byProperty = new Map<string, { own: Bounds; items: Bounds }>()
  for (const meta of metadatas) {
    const rule = RULES[meta.name ?? meta.type]
    if (!rule || meta.groups?.length) continue
    const entry = byProperty.get(meta.propertyName) ?? { own: {}, items: {} }
    const into = meta.each ? entry.items : entry.own
    for (const [bound, value] of Object.entries(rule(meta.constraints ?? [])) as [Bound, number][]) {
      const current = into[bound]
      into[bound] =
        current === undefined ? value : LOWER.has(bound) ? Math.max(current, value) : Math.min(current, value)
    }
    byProperty.set(meta.propertyName, entry)
  }
  return byProperty
}

function documentedBounds(schema: SchemaObject | undefined): Bounds {
  const bounds: Bounds = {}
  for (const bound of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) {
    if (typeof schema?.[bound] === 'number') bounds[bound] = schema[bound]
  }
  return bounds
}

describe('bounds in the OpenAPI document', () => {
  const options: RoutingControllersOptions = { controllers: controllersOf(API_MODULES), routePrefix: '' }
  const doc = buildOpenApiDocument(options, 'http://localhost')
  const components = (doc.components?.schemas ?? {}) as Record<string, SchemaObject>
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }
  const dtoClasses = [...storage.validationMetadatas.keys()].filter(
    (target): target is new () => unknown => typeof target === 'function',
  )

  /** Property schemas of a component, following allOf (class inheritance) one level. */
  const propertiesOf = (schema: SchemaObject): Record<string, SchemaObject> =>
    Object.assign(
      {},
      ...(schema.allOf ?? []).map((part) => {
        const ref = (part as ReferenceObject).$ref
        return ref
          ? propertiesOf(components[ref.split('/').pop() ?? ''] ?? {})
          : ((part as SchemaObject).properties ?? {})
      }),
      schema.properties ?? {},
    ) as Record<string, SchemaObject>

  const mismatches = (
    where: string,
    property: string,
    schema: SchemaObject | undefined,
    enforced: { own: Bounds; items: Bounds },
  ) => {
    const found: string[] = []
    const documented = documentedBounds(schema)
    if (
      JSON.stringify(documented, Object.keys(documented).sort()) !==
      JSON.stringify(enforced.own, Object.keys(enforced.own).sort())
    ) {
      found.push(
        `${where}.${property}: documented ${JSON.stringify(documented)}, enforced ${JSON.stringify(enforced.own)}`,
      )
    }
    if (Object.keys(enforced.items).length > 0) {
      const items = documentedBounds(schema?.items as SchemaObject | undefined)
      if (
        JSON.stringify(items, Object.keys(items).sort()) !==
        JSON.stringify(enforced.items, Object.keys(enforced.items).sort())
      ) {
        found.push(
          `${where}.${property}[]: documented ${JSON.stringify(items)}, enforced ${JSON.stringify(enforced.items)}`,
        )
      }
    }
    return found
  }

  it('are those the server enforces, for every request body schema', () => {
    const compared: string[] = []
    const wrong: string[] = []
    for (const target of dtoClasses) {
      const schema = components[target.name]
      if (!schema) continue
      const properties = propertiesOf(schema)
      for (const [property, enforced] of enforcedBounds(target)) {
        compared.push(`${target.name}.${property}`)
        wrong.push(...mismatches(target.name, property, properties[property], enforced))
      }
    }
    expect(compared.length).toBeGreaterThan(30)
    expect(wrong).toEqual([])
  })

  it('are those the server enforces, for every query parameter', () => {
    const compared: string[] = []
    const wrong: string[] = []
    for (const route of parseRoutes(getMetadataArgsStorage(), options)) {
      const queries = route.params.find((param) => param.type === 'queries')
      if (!queries) continue
      const types = Reflect.getMetadata('design:paramtypes', route.action.target.prototype, route.action.method) as
        | (new () => unknown)[]
        | undefined
      const target = (queries.explicitType as (new () => unknown) | undefined) ?? types?.[queries.index]
      if (!target) continue
      const path = getFullPath(route).replace(/:(\w+)/g, '{$1}')
      const operation = doc.paths[path]?.[(route.action.type ?? 'get').toLowerCase()] as OperationObject | undefined
      if (!operation) continue
      const parameters = (operation.parameters ?? []) as ParameterObject[]
      for (const [property, enforced] of enforcedBounds(target)) {
        const parameter = parameters.find((candidate) => candidate.in === 'query' && candidate.name === property)
        compared.push(`${path} ${property}`)
        wrong.push(
          ...mismatches(`${route.action.type} ${path}?`, property, parameter?.schema as SchemaObject, enforced),
        )
      }
    }
    expect(compared.length).toBeGreaterThan(10)
    expect([...new Set(wrong)]).toEqual([])
  })
})
