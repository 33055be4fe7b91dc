import type { ReferenceObject, SchemaObject } from 'openapi3-ts'
import type { Page } from './pagination'

/** Named schemas collected while rendering, for `components.schemas`. */
export type SchemaComponents = Record<string, SchemaObject | ReferenceObject>

/**
 * The JSON schema of a response's `data`, typed by the TypeScript value it describes. The type parameter is
 * invariant (a `string` schema is not a `string | null` schema), and `object<T>()` must name every key of `T`,
 * so the compiler keeps the OpenAPI document in step with the response interfaces.
 */
export interface DataSchema<T> {
  /** Phantom member carrying `T`; never set. */
  readonly type?: (value: T) => T
  /** Whether a property with this schema may be absent (`optional()`). */
  readonly isOptional?: boolean
  /** Set only on `messageOnly`. */
  readonly isMessageOnly?: boolean
  render(components: SchemaComponents): SchemaObject | ReferenceObject
}

/** One schema per property of `T`, every key named (optional keys with `optional()`). */
export type Properties<T> = { [K in keyof T]-?: DataSchema<T[K]> }

function leaf<T>(schema: SchemaObject): DataSchema<T> {
  return { render: () => ({ ...schema }) }
}

export const string = leaf<string>({ type: 'string' })
export const uuid = leaf<string>({ type: 'string', format: 'uuid' })
export const dateTime = leaf<string>({ type: 'string', format: 'date-time' })
export const email = leaf<string>({ type: 'string', format: 'email' })
export const uri = leaf<string>({ type: 'string', format: 'uri' })
export const integer = leaf<number>({ type: 'integer' })
export const boolean = leaf<boolean>({ type: 'boolean' })

/** The data of a message-only envelope (`Envelope<never>`): no `data` member. */
export const messageOnly: DataSchema<never> = { isMessageOnly: true, render: () => ({}) }

export function oneOf<const V extends readonly string[]>(values: V): DataSchema<V[number]> {
  return leaf<V[number]>({ type: 'string', enum: [...values] })
}

export function nullable<T>(inner: DataSchema<T>): DataSchema<T | null> {
  return {
    render: (components) => {
      const rendered = inner.render(components)
      // OpenAPI 3.0: a $ref cannot carry siblings, so a nullable reference is wrapped.
      return '$ref' in rendered ? { nullable: true, allOf: [rendered] } : { ...rendered, nullable: true }
    },
  }
}

export function optional<T>(inner: DataSchema<T>): DataSchema<T | undefined> {
  return { isOptional: true, render: (components) => inner.render(components) }
}

export function arrayOf<T>(items: DataSchema<T>): DataSchema<T[]> {
  return { render: (components) => ({ type: 'array', items: items.render(components) }) }
}

/** An object with arbitrary keys and values of one schema (status maps, counters). */
export function recordOf<V>(values: DataSchema<V>): DataSchema<Record<string, V>> {
  return { render: (components) => ({ type: 'object', additionalProperties: values.render(components) }) }
}

/** How often each component name was declared (object() and unchecked() with a name), for the duplicate-name test. */
const declaredNames = new Map<string, number>()

function declare(name: string): void {
  declaredNames.set(name, (declaredNames.get(name) ?? 0) + 1)
}

/**
 * The component names response schemas declared so far, with how often: a name declared twice renders only the first
 * schema (and a DTO class of the same name replaces it), so routes would be documented with another's fields.
 */
export function declaredSchemaNames(): ReadonlyMap<string, number> {
  return declaredNames
}

/**
 * An object schema; with a `name`, rendered once into `components.schemas` and referenced by `$ref`.
 * Call it with the interface it describes: `object<UserResponse>('User', { ... })`.
 */
export function object<T>(name: string | undefined, properties: Properties<T>): DataSchema<T> {
  const build = (components: SchemaComponents): SchemaObject => {
    const entries = Object.entries(properties) as [string, DataSchema<unknown>][]
    const required = entries.filter(([, schema]) => !schema.isOptional).map(([key]) => key)
    return {
      type: 'object',
      properties: Object.fromEntries(entries.map(([key, schema]) => [key, schema.render(components)])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    }
  }
  if (name === undefined) return { render: build }
  declare(name)
  return {
    render: (components) => {
      if (!(name in components)) {
        components[name] = {}
        components[name] = build(components)
      }
      return { $ref: `#/components/schemas/${name}` }
    },
  }
}

/** The paginated payload (spec: Conventions, paginated lists) around items of one schema. */
export function pageOf<T>(items: DataSchema<T>): DataSchema<Page<T>> {
  return object<Page<T>>(undefined, {
    totalItems: integer,
    hasNextPage: boolean,
    hasPreviousPage: boolean,
    nextPage: nullable(integer),
    previousPage: nullable(integer),
    lastPage: integer,
    data: arrayOf(items),
  })
}

/**
 * A schema written by hand for a type whose shape is open by design (keys contributed by several modules);
 * the compiler cannot check it against `T`, so use it only there.
 */
export function unchecked<T>(name: string, schema: SchemaObject): DataSchema<T> {
  declare(name)
  return {
    render: (components) => {
      components[name] ??= schema
      return { $ref: `#/components/schemas/${name}` }
    },
  }
}
