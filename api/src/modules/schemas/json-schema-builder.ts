import { InvalidInputError, type FieldError } from '@idplane/common'
import { patternRefusal } from '@idplane/common/linear-regexp'

/** The data types of a `JSON` attribute definition (spec: Schema attribute definition, type JSON). */
export const JSON_SCHEMA_DATA_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'array',
  'object',
] as const
export type JsonSchemaDataType = (typeof JSON_SCHEMA_DATA_TYPES)[number]

/** The JSON Schema dialect of every schema the platform publishes. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'

/** Bounds that keep one schema small enough to store, publish and compile quickly (docs/decisions.md, Schemas). */
export const SCHEMA_LIMITS = {
  attributesPerLevel: 100,
  depth: 5,
  nameLength: 256,
  textLength: 1000,
  patternLength: 500,
  enumValues: 200,
} as const

/** One attribute definition as the client sent it; checked field by field by `buildCredentialJsonSchema`. */
export type AttributeDefinition = Record<string, unknown>

/** A JSON Schema node; plain JSON. */
export type JsonSchemaNode = Record<string, unknown>

/** The constraints the spec lists for each data type (string, number/integer, array, object). */
const CONSTRAINTS_BY_TYPE: Record<JsonSchemaDataType, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'enum', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  date: [],
  datetime: [],
  array: ['minItems', 'maxItems', 'uniqueItems', 'items'],
  object: ['minProperties', 'maxProperties', 'additionalProperties', 'required', 'dependentRequired', 'properties'],
}
const ALL_CONSTRAINTS = new Set(Object.values(CONSTRAINTS_BY_TYPE).flat())
const DESCRIPTIVE_FIELDS = ['attributeName', 'displayName', 'schemaDataType', 'isRequired', 'description']

/** RFC 4648 / RFC 2045 encodings JSON Schema names for `contentEncoding`. */
const CONTENT_ENCODINGS = ['7bit', '8bit', 'binary', 'quoted-printable', 'base16', 'base32', 'base64', 'base64url']
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i
/** Where a definition sits: top-level attributes need every descriptive field; nested ones only a data type. */
type Position = 'attribute' | 'property' | 'nested'

class DefinitionChecker {
  public readonly errors: FieldError[] = []

  public fail(field: string, message: string): void {
    this.errors.push({ field, message })
  }

  /** The JSON Schema of one definition, or undefined when it is unusable (errors recorded). */
  public node(definition: unknown, path: string, position: Position, depth: number): JsonSchemaNode | undefined {
    if (!isPlainObject(definition)) {
      this.fail(path, 'must be an object')
      return undefined
    }
    const type = definition.schemaDataType
    if (!(JSON_SCHEMA_DATA_TYPES as readonly unknown[]).includes(type)) {
      this.fail(`${path}.schemaDataType`, `must be one of ${JSON_SCHEMA_DATA_TYPES.join(', ')}`)
      return undefined
    }
    const dataType = type as JsonSchemaDataType
    this.checkDescriptiveFields(definition, path, position)
    for (const key of Object.keys(definition)) {
      if (DESCRIPTIVE_FIELDS.includes(key)) continue
      if (!ALL_CONSTRAINTS.has(key)) this.fail(`${path}.${key}`, 'is not a field of an attribute definition')
      else if (!CONSTRAINTS_BY_TYPE[dataType].includes(key) && definition[key] !== undefined)
        this.fail(`${path}.${key}`, `does not apply to schemaDataType ${dataType}`)
    }
    const node: JsonSchemaNode = {}
    if (typeof definition.displayName === 'string') node.title = definition.displayName
    if (typeof definition.description === 'string') node.description = definition.description
    switch (dataType) {
      case 'string':
        Object.assign(node, { type: 'string' }, this.stringConstraints(definition, path))
        break
      case 'number':
      case 'integer':
        Object.assign(node, { type: dataType }, this.numberConstraints(definition, path, dataType))
        break
      case 'boolean':
        node.type = 'boolean'
        break
      case 'date':
        Object.assign(node, { type: 'string', format: 'date' })
        break
      case 'datetime':
        Object.assign(node, { type: 'string', format: 'date-time' })
        break
      case 'array':
        Object.assign(node, { type: 'array' }, this.arrayConstraints(definition, path, depth))
        break
      case 'object':
        Object.assign(node, { type: 'object' }, this.objectConstraints(definition, path, depth))
        break
    }
    return node
  }

  /**
   * The properties of an object level from a list of definitions: each `attributeName` once; the names with
   * `isRequired` true come back as `required`.
   */
  public level(
    definitions: unknown,
    path: string,
    position: Position,
    depth: number,
  ): { properties: Record<string, JsonSchemaNode>; required: string[] } | undefined {
    const entries = this.namedDefinitions(definitions, path, position)
    if (!entries) return undefined
    if (depth > SCHEMA_LIMITS.depth) {
      this.fail(path, `nests deeper than ${SCHEMA_LIMITS.depth} levels`)
      return undefined
    }
    const properties: Record<string, JsonSchemaNode> = {}
    const required: string[] = []
    for (const { name, definition, at } of entries) {
      if (Object.hasOwn(properties, name)) {
        this.fail(`${at}.attributeName`, `"${name}" is defined twice`)
        continue
      }
      const node = this.node(definition, at, position, depth)
      if (!node) continue
      properties[name] = node
      if (isPlainObject(definition) && definition.isRequired === true) required.push(name)
    }
    return { properties, required }
  }

  private namedDefinitions(
    definitions: unknown,
    path: string,
    position: Position,
  ): { name: string; definition: unknown; at: string }[] | undefined {
    // `properties` may also be a map from the property name to its definition.
    if (position === 'property' && isPlainObject(definitions)) {
      const entries = Object.entries(definitions)
      if (entries.length > SCHEMA_LIMITS.attributesPerLevel) {
        this.fail(path, `must have at most ${SCHEMA_LIMITS.attributesPerLevel} entries`)
        return undefined
      }
      const named: { name: string; definition: unknown; at: string }[] = []
      for (const [name, definition] of entries) {
        const at = `${path}.${name}`
        if (!this.checkName(name, at)) continue
        if (isPlainObject(definition) && definition.attributeName !== undefined && definition.attributeName !== name)
          this.fail(`${at}.attributeName`, 'must equal the key it is defined under')
        else named.push({ name, definition, at })
      }
      return named
    }
    if (!Array.isArray(definitions)) {
      this.fail(path, position === 'property' ? 'must be an array or an object of definitions' : 'must be an array')
      return undefined
    }
    if (definitions.length === 0 && position === 'attribute') {
      this.fail(path, 'must have at least one attribute')
      return undefined
    }
    if (definitions.length > SCHEMA_LIMITS.attributesPerLevel) {
      this.fail(path, `must have at most ${SCHEMA_LIMITS.attributesPerLevel} entries`)
      return undefined
    }
    const named: { name: string; definition: unknown; at: string }[] = []
    definitions.forEach((definition, index) => {
      const at = `${path}[${index}]`
      if (!isPlainObject(definition)) return this.fail(at, 'must be an object')
      const name = definition.attributeName
      if (typeof name !== 'string') this.fail(`${at}.attributeName`, 'must be a string')
      else if (this.checkName(name, `${at}.attributeName`)) named.push({ name, definition, at })
    })
    return named
  }

  private checkName(name: string, at: string): boolean {
    if (name.trim().length === 0 || name.length > SCHEMA_LIMITS.nameLength) {
      this.fail(at, `must be 1 to ${SCHEMA_LIMITS.nameLength} characters, not blank`)
      return false
    }
    // JSON-LD keywords (`@context`, `@id`) belong to the credential's context, not to its subject's claims.
    if (name.startsWith('@') || name === '__proto__') {
      this.fail(at, `"${name}" cannot be an attribute name`)
      return false
    }
    return true
  }

  private checkDescriptiveFields(definition: Record<string, unknown>, path: string, position: Position): void {
    const needsAll = position === 'attribute'
    const text = (key: string, required: boolean) => {
      const value = definition[key]
      if (value === undefined) {
        if (required) this.fail(`${path}.${key}`, 'is required')
      } else if (typeof value !== 'string' || value.length > SCHEMA_LIMITS.textLength) {
        this.fail(`${path}.${key}`, `must be a string of at most ${SCHEMA_LIMITS.textLength} characters`)
      }
    }
    text('displayName', needsAll)
    text('description', false)
    const isRequired = definition.isRequired
    if (isRequired === undefined ? needsAll : typeof isRequired !== 'boolean')
      this.fail(`${path}.isRequired`, isRequired === undefined ? 'is required' : 'must be a boolean')
    else if (position === 'nested' && isRequired === true)
      this.fail(`${path}.isRequired`, 'only applies to attributes and object properties')
  }

  private stringConstraints(definition: AttributeDefinition, path: string): JsonSchemaNode {
    const node: JsonSchemaNode = {}
    const minLength = this.count(definition, 'minLength', path)
    const maxLength = this.count(definition, 'maxLength', path)
    if (minLength !== undefined) node.minLength = minLength
    if (maxLength !== undefined) node.maxLength = maxLength
    if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
      this.fail(`${path}.minLength`, 'must not exceed maxLength')
    if (definition.pattern !== undefined) {
      const pattern = definition.pattern
      // Patterns are run by the linear-time matcher (common/linear-regexp), never by V8's backtracking engine: any
      // pattern it accepts is safe whatever its shape, and what it refuses (backreferences, lookaround) is named.
      const refusal = typeof pattern === 'string' ? patternRefusal(pattern) : undefined
      if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > SCHEMA_LIMITS.patternLength)
        this.fail(`${path}.pattern`, `must be a regular expression of 1 to ${SCHEMA_LIMITS.patternLength} characters`)
      else if (refusal) this.fail(`${path}.pattern`, refusal)
      else node.pattern = pattern
    }
    if (definition.enum !== undefined) {
      const values = definition.enum
      if (
        !Array.isArray(values) ||
        values.length === 0 ||
        values.length > SCHEMA_LIMITS.enumValues ||
        !values.every((value) => typeof value === 'string' && value.length <= SCHEMA_LIMITS.textLength)
      )
        this.fail(`${path}.enum`, `must be 1 to ${SCHEMA_LIMITS.enumValues} strings`)
      else if (new Set(values).size !== values.length) this.fail(`${path}.enum`, 'must not repeat a value')
      else node.enum = values
    }
    if (definition.contentEncoding !== undefined) {
      if (typeof definition.contentEncoding !== 'string' || !CONTENT_ENCODINGS.includes(definition.contentEncoding))
        this.fail(`${path}.contentEncoding`, `must be one of ${CONTENT_ENCODINGS.join(', ')}`)
      else node.contentEncoding = definition.contentEncoding
    }
    if (definition.contentMediaType !== undefined) {
      if (typeof definition.contentMediaType !== 'string' || !MEDIA_TYPE.test(definition.contentMediaType))
        this.fail(`${path}.contentMediaType`, 'must be a media type such as image/png')
      else node.contentMediaType = definition.contentMediaType
    }
    return node
  }

  private numberConstraints(definition: AttributeDefinition, path: string, type: 'number' | 'integer'): JsonSchemaNode {
    const node: JsonSchemaNode = {}
    const read = (key: string): number | undefined => {
      const value = definition[key]
      if (value === undefined) return undefined
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        this.fail(`${path}.${key}`, 'must be a finite number')
        return undefined
      }
      node[key] = value
      return value
    }
    const minimum = read('minimum')
    const maximum = read('maximum')
    const exclusiveMinimum = read('exclusiveMinimum')
    const exclusiveMaximum = read('exclusiveMaximum')
    const multipleOf = read('multipleOf')
    if (multipleOf !== undefined && multipleOf <= 0) this.fail(`${path}.multipleOf`, 'must be greater than 0')
    if (type === 'integer' && multipleOf !== undefined && !Number.isInteger(multipleOf))
      this.fail(`${path}.multipleOf`, 'must be an integer for schemaDataType integer')
    // The lowest and highest value each pair admits; an empty range is a definition no value can satisfy.
    const lowers = [
      { key: 'minimum', value: minimum, exclusive: false },
      { key: 'exclusiveMinimum', value: exclusiveMinimum, exclusive: true },
    ]
    const uppers = [
      { key: 'maximum', value: maximum, exclusive: false },
      { key: 'exclusiveMaximum', value: exclusiveMaximum, exclusive: true },
    ]
    for (const lower of lowers) {
      for (const upper of uppers) {
        if (lower.value === undefined || upper.value === undefined) continue
        const empty = lower.exclusive || upper.exclusive ? lower.value >= upper.value : lower.value > upper.value
        if (empty)
          this.fail(
            `${path}.${lower.key}`,
            `must be ${lower.exclusive || upper.exclusive ? 'below' : 'at most'} ${upper.key}`,
          )
      }
    }
    return node
  }

  private arrayConstraints(definition: AttributeDefinition, path: string, depth: number): JsonSchemaNode {
    const node: JsonSchemaNode = {}
    const minItems = this.count(definition, 'minItems', path)
    const maxItems = this.count(definition, 'maxItems', path)
    if (minItems !== undefined) node.minItems = minItems
    if (maxItems !== undefined) node.maxItems = maxItems
    if (minItems !== undefined && maxItems !== undefined && minItems > maxItems)
      this.fail(`${path}.minItems`, 'must not exceed maxItems')
    if (definition.uniqueItems !== undefined) {
      if (typeof definition.uniqueItems !== 'boolean') this.fail(`${path}.uniqueItems`, 'must be a boolean')
      else node.uniqueItems = definition.uniqueItems
    }
    const items = definition.items
    if (items !== undefined) {
      if (depth >= SCHEMA_LIMITS.depth) {
        this.fail(`${path}.items`, `nests deeper than ${SCHEMA_LIMITS.depth} levels`)
      } else if (Array.isArray(items)) {
        // Several item definitions: every element matches one of them.
        if (items.length === 0 || items.length > SCHEMA_LIMITS.attributesPerLevel)
          this.fail(`${path}.items`, `must have 1 to ${SCHEMA_LIMITS.attributesPerLevel} definitions`)
        else {
          const nodes = items.map((item, index) => this.node(item, `${path}.items[${index}]`, 'nested', depth + 1))
          if (nodes.every((entry) => entry !== undefined)) node.items = nodes.length === 1 ? nodes[0] : { anyOf: nodes }
        }
      } else {
        const itemNode = this.node(items, `${path}.items`, 'nested', depth + 1)
        if (itemNode) node.items = itemNode
      }
    }
    return node
  }

  private objectConstraints(definition: AttributeDefinition, path: string, depth: number): JsonSchemaNode {
    const node: JsonSchemaNode = {}
    const minProperties = this.count(definition, 'minProperties', path)
    const maxProperties = this.count(definition, 'maxProperties', path)
    if (minProperties !== undefined) node.minProperties = minProperties
    if (maxProperties !== undefined) node.maxProperties = maxProperties
    if (minProperties !== undefined && maxProperties !== undefined && minProperties > maxProperties)
      this.fail(`${path}.minProperties`, 'must not exceed maxProperties')
    let names: string[] | undefined
    const required = new Set<string>()
    if (definition.properties !== undefined) {
      const level = this.level(definition.properties, `${path}.properties`, 'property', depth + 1)
      if (level) {
        node.properties = level.properties
        names = Object.keys(level.properties)
        level.required.forEach((name) => required.add(name))
      }
    }
    const known = (name: string) => names === undefined || names.includes(name)
    if (definition.required !== undefined) {
      const list = definition.required
      if (!isStringList(list)) this.fail(`${path}.required`, 'must be an array of distinct property names')
      else
        for (const name of list) {
          if (known(name)) required.add(name)
          else this.fail(`${path}.required`, `names "${name}", which is not among the properties`)
        }
    }
    if (required.size > 0) node.required = [...required]
    if (definition.dependentRequired !== undefined) {
      const dependent = definition.dependentRequired
      if (
        !isPlainObject(dependent) ||
        Object.hasOwn(dependent, '__proto__') ||
        !Object.values(dependent).every(isStringList)
      )
        this.fail(`${path}.dependentRequired`, 'must map a property name to an array of distinct property names')
      else {
        for (const [name, needed] of Object.entries(dependent)) {
          for (const other of [name, ...(needed as string[])])
            if (!known(other))
              this.fail(`${path}.dependentRequired.${name}`, `names "${other}", which is not among the properties`)
        }
        node.dependentRequired = dependent
      }
    }
    const additional = definition.additionalProperties
    if (additional !== undefined) {
      if (typeof additional === 'boolean') node.additionalProperties = additional
      else if (depth >= SCHEMA_LIMITS.depth)
        this.fail(`${path}.additionalProperties`, `nests deeper than ${SCHEMA_LIMITS.depth} levels`)
      else {
        const additionalNode = this.node(additional, `${path}.additionalProperties`, 'nested', depth + 1)
        if (additionalNode) node.additionalProperties = additionalNode
      }
    }
    return node
  }

  /** A non-negative integer bound (`minLength`, `maxItems` ...). */
  private count(definition: AttributeDefinition, key: string, path: string): number | undefined {
    const value = definition[key]
    if (value === undefined) return undefined
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      this.fail(`${path}.${key}`, 'must be a non-negative integer')
      return undefined
    }
    return value
  }
}

/** What a `JSON` schema is built from (the `schemaPayload` of `POST /orgs/:orgId/schemas`). */
export interface JsonSchemaInput {
  name: string
  description?: string
  attributes: unknown
}

/**
 * The JSON Schema (draft 2020-12) of a W3C credential whose `credentialSubject` carries the given attributes:
 * the credential's envelope (`@context`, `type`, `issuer`, dates, `credentialSchema`) plus one subject property
 * per attribute with its constraints. `$id` is left to the publisher (the public URL is known only once the
 * record exists).
 * @throws InvalidInputError naming each offending definition path (`schemaPayload.attributes[1].maxLength`)
 */
export function buildCredentialJsonSchema(input: JsonSchemaInput, path = 'schemaPayload'): JsonSchemaNode {
  const checker = new DefinitionChecker()
  const level = checker.level(input.attributes, `${path}.attributes`, 'attribute', 1)
  if (checker.errors.length > 0 || !level) {
    throw new InvalidInputError(
      `The attribute definitions are invalid: ${checker.errors.map((error) => `${error.field} ${error.message}`).join('; ')}`,
      checker.errors,
    )
  }
  const subject: JsonSchemaNode = {
    type: 'object',
    properties: { id: { type: 'string', format: 'uri' }, ...level.properties },
  }
  if (level.required.length > 0) subject.required = level.required
  const dateTime = { type: 'string', format: 'date-time' }
  const reference = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uri' } } }
  const schema: JsonSchemaNode = {
    $schema: JSON_SCHEMA_DIALECT,
    title: input.name,
  }
  if (input.description) schema.description = input.description
  return Object.assign(schema, {
    type: 'object',
    required: ['@context', 'type', 'issuer', 'credentialSubject'],
    properties: {
      '@context': { type: ['array', 'string'], minItems: 1 },
      type: { type: ['array', 'string'], minItems: 1, items: { type: 'string' } },
      issuer: { anyOf: [{ type: 'string', format: 'uri' }, reference] },
      issuanceDate: dateTime,
      expirationDate: dateTime,
      validFrom: dateTime,
      validUntil: dateTime,
      credentialSchema: { anyOf: [reference, { type: 'array', items: reference }] },
      credentialSubject: subject,
    },
  })
}

/** The attribute names of the top level (the schema record's `attributes`). */
export function attributeNames(attributes: unknown): string[] {
  return Array.isArray(attributes)
    ? attributes.flatMap((attribute) =>
        isPlainObject(attribute) && typeof attribute.attributeName === 'string' ? [attribute.attributeName] : [],
      )
    : []
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStringList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= SCHEMA_LIMITS.attributesPerLevel &&
    value.every(
      (entry) => typeof entry === 'string' && entry.length <= SCHEMA_LIMITS.nameLength && entry !== '__proto__',
    ) &&
    // JSON Schema requires the names in `required` and `dependentRequired` to be unique.
    new Set(value).size === value.length
  )
}
