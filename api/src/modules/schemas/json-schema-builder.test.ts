import fc from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { linearRegExpEngine } from '@idplane/common/linear-regexp'
import { InvalidInputError } from '@idplane/common'
import {
  JSON_SCHEMA_DIALECT,
  buildCredentialJsonSchema,
  attributeNames,
  type JsonSchemaNode,
} from './json-schema-builder'

type Definition = Record<string, unknown>

function attribute(schemaDataType: string, constraints: Definition = {}, name = 'claim'): Definition {
  return { attributeName: name, displayName: `The ${name}`, schemaDataType, isRequired: false, ...constraints }
}

function build(attributes: unknown, description?: string): JsonSchemaNode {
  return buildCredentialJsonSchema({ name: 'Test', description, attributes })
}

/** The subject property the builder made of a single attribute. */
function subjectNode(definition: Definition): JsonSchemaNode {
  const schema = build([definition]) as {
    properties: { credentialSubject: { properties: Record<string, JsonSchemaNode> } }
  }
  return schema.properties.credentialSubject.properties[String(definition.attributeName)]
}

/** The fields of the InvalidInputError the definitions raise. */
function rejection(attributes: unknown): { field: string; message: string }[] {
  try {
    build(attributes)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as InvalidInputError).fields
  }
  throw new Error('the definitions were accepted')
}

describe('buildCredentialJsonSchema', () => {
  it('shapes a draft 2020-12 schema of a W3C credential, the attributes under credentialSubject', () => {
    const schema = build(
      [attribute('string', { isRequired: true }, 'name'), attribute('integer', { description: 'In years' }, 'age')],
      'People',
    ) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(schema.$schema).toBe(JSON_SCHEMA_DIALECT)
    expect(schema.title).toBe('Test')
    expect(schema.description).toBe('People')
    expect(schema.required).toEqual(['@context', 'type', 'issuer', 'credentialSubject'])
    expect(schema.properties.issuanceDate).toEqual({ type: 'string', format: 'date-time' })
    expect(schema.properties.credentialSubject).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uri' },
        name: { title: 'The name', type: 'string' },
        age: { title: 'The age', description: 'In years', type: 'integer' },
      },
      required: ['name'],
    })
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    expect(ajv.validateSchema(schema)).toBe(true)
  })

  it.each([
    ['boolean', { type: 'boolean' }],
    ['number', { type: 'number' }],
    ['date', { type: 'string', format: 'date' }],
    ['datetime', { type: 'string', format: 'date-time' }],
  ])('maps schemaDataType %s', (type, expected) => {
    expect(subjectNode(attribute(type))).toEqual({ title: 'The claim', ...expected })
  })

  it('carries every string constraint', () => {
    const constraints = {
      minLength: 2,
      maxLength: 10,
      pattern: '^[A-Z]+\\d*$',
      enum: ['AB', 'CD1'],
      contentEncoding: 'base64',
      contentMediaType: 'image/png',
    }
    expect(subjectNode(attribute('string', constraints))).toEqual({
      title: 'The claim',
      type: 'string',
      ...constraints,
    })
  })

  it.each(['number', 'integer'])('carries every %s constraint', (type) => {
    const constraints = { minimum: 0, maximum: 100, exclusiveMinimum: -1, exclusiveMaximum: 101, multipleOf: 5 }
    expect(subjectNode(attribute(type, constraints))).toEqual({ title: 'The claim', type, ...constraints })
  })

  it('carries every array constraint, items as one definition or several', () => {
    expect(
      subjectNode(
        attribute('array', {
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
          items: { schemaDataType: 'string', maxLength: 4 },
        }),
      ),
    ).toEqual({
      title: 'The claim',
      type: 'array',
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
      items: { type: 'string', maxLength: 4 },
    })
    expect(
      subjectNode(attribute('array', { items: [{ schemaDataType: 'integer' }, { schemaDataType: 'date' }] })).items,
    ).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string', format: 'date' }],
    })
  })

  it('carries every object constraint, nested properties as a list or a map', () => {
    const node = subjectNode(
      attribute('object', {
        minProperties: 1,
        maxProperties: 4,
        additionalProperties: false,
        required: ['street'],
        dependentRequired: { city: ['zip'] },
        properties: [
          { attributeName: 'street', schemaDataType: 'string' },
          { attributeName: 'city', schemaDataType: 'string', isRequired: true },
          { attributeName: 'zip', schemaDataType: 'string', displayName: 'ZIP', pattern: '^\\d{5}$' },
        ],
      }),
    )
    expect(node).toEqual({
      title: 'The claim',
      type: 'object',
      minProperties: 1,
      maxProperties: 4,
      additionalProperties: false,
      required: ['city', 'street'],
      dependentRequired: { city: ['zip'] },
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
        zip: { title: 'ZIP', type: 'string', pattern: '^\\d{5}$' },
      },
    })
    const mapped = subjectNode(
      attribute('object', {
        properties: { level: { schemaDataType: 'integer', minimum: 1 } },
        additionalProperties: { schemaDataType: 'boolean' },
      }),
    )
    expect(mapped.properties).toEqual({ level: { type: 'integer', minimum: 1 } })
    expect(mapped.additionalProperties).toEqual({ type: 'boolean' })
  })

  it('keeps patterns of any shape: they are run by the linear-time matcher, not judged by their look', () => {
    for (const pattern of [
      '^(a+)+$',
      '((a+))+$',
      '(a|a)+$',
      '(a|a?)+$',
      '^(a|b|ab)*c$',
      '(a?){30}a{30}',
      '^(\\d{3}\\.){3}\\d{3}$',
    ])
      expect(subjectNode(attribute('string', { pattern })).pattern).toBe(pattern)
  })

  it('lists the top-level attribute names', () => {
    expect(attributeNames([attribute('string', {}, 'a'), attribute('date', {}, 'b'), 'junk'])).toEqual(['a', 'b'])
    expect(attributeNames('junk')).toEqual([])
  })

  describe('refuses bad definitions with the path of each', () => {
    it.each([
      [
        'a constraint of another type',
        attribute('number', { minLength: 1 }),
        'attributes[0].minLength',
        /does not apply to schemaDataType number/,
      ],
      ['a string constraint on a date', attribute('date', { pattern: 'x' }), 'attributes[0].pattern', /does not apply/],
      ['an unknown field', attribute('string', { colour: 'red' }), 'attributes[0].colour', /not a field/],
      ['an unknown data type', attribute('uuid'), 'attributes[0].schemaDataType', /must be one of/],
      [
        'a bad regular expression',
        attribute('string', { pattern: '([a-z' }),
        'attributes[0].pattern',
        /not a valid regular expression/,
      ],
      [
        'a backreference (it needs a backtracking engine)',
        attribute('string', { pattern: '^(a+)\\1$' }),
        'attributes[0].pattern',
        /backreferences are not supported/,
      ],
      [
        'a lookahead (it needs a backtracking engine)',
        attribute('string', { pattern: '^(?=a)a+$' }),
        'attributes[0].pattern',
        /lookahead is not supported/,
      ],
      [
        'minLength above maxLength',
        attribute('string', { minLength: 5, maxLength: 2 }),
        'attributes[0].minLength',
        /maxLength/,
      ],
      ['a negative length', attribute('string', { maxLength: -1 }), 'attributes[0].maxLength', /non-negative integer/],
      [
        'a fractional length',
        attribute('string', { minLength: 1.5 }),
        'attributes[0].minLength',
        /non-negative integer/,
      ],
      ['an empty enum', attribute('string', { enum: [] }), 'attributes[0].enum', /1 to/],
      ['a non-string enum value', attribute('string', { enum: ['a', 1] }), 'attributes[0].enum', /strings/],
      ['a repeated enum value', attribute('string', { enum: ['a', 'a'] }), 'attributes[0].enum', /repeat/],
      [
        'an unknown content encoding',
        attribute('string', { contentEncoding: 'rot13' }),
        'attributes[0].contentEncoding',
        /one of/,
      ],
      [
        'a bad media type',
        attribute('string', { contentMediaType: 'png' }),
        'attributes[0].contentMediaType',
        /media type/,
      ],
      ['minimum above maximum', attribute('number', { minimum: 5, maximum: 1 }), 'attributes[0].minimum', /maximum/],
      [
        'an empty exclusive range',
        attribute('integer', { exclusiveMinimum: 3, exclusiveMaximum: 3 }),
        'attributes[0].exclusiveMinimum',
        /below exclusiveMaximum/,
      ],
      [
        'minimum at the exclusive maximum',
        attribute('number', { minimum: 3, exclusiveMaximum: 3 }),
        'attributes[0].minimum',
        /below exclusiveMaximum/,
      ],
      ['a non-numeric bound', attribute('number', { maximum: '10' }), 'attributes[0].maximum', /finite number/],
      ['a zero multipleOf', attribute('number', { multipleOf: 0 }), 'attributes[0].multipleOf', /greater than 0/],
      [
        'a fractional integer multipleOf',
        attribute('integer', { multipleOf: 0.5 }),
        'attributes[0].multipleOf',
        /integer/,
      ],
      [
        'minItems above maxItems',
        attribute('array', { minItems: 3, maxItems: 1 }),
        'attributes[0].minItems',
        /maxItems/,
      ],
      ['a non-boolean uniqueItems', attribute('array', { uniqueItems: 'yes' }), 'attributes[0].uniqueItems', /boolean/],
      [
        'a bad item definition',
        attribute('array', { items: { schemaDataType: 'string', minimum: 1 } }),
        'attributes[0].items.minimum',
        /does not apply/,
      ],
      [
        'isRequired on an item',
        attribute('array', { items: { schemaDataType: 'string', isRequired: true } }),
        'attributes[0].items.isRequired',
        /only applies/,
      ],
      [
        'minProperties above maxProperties',
        attribute('object', { minProperties: 2, maxProperties: 1 }),
        'attributes[0].minProperties',
        /maxProperties/,
      ],
      [
        'required naming no property',
        attribute('object', { properties: [{ attributeName: 'a', schemaDataType: 'string' }], required: ['b'] }),
        'attributes[0].required',
        /"b"/,
      ],
      [
        'dependentRequired naming no property',
        attribute('object', { properties: { a: { schemaDataType: 'string' } }, dependentRequired: { a: ['c'] } }),
        'attributes[0].dependentRequired.a',
        /"c"/,
      ],
      [
        'a malformed dependentRequired',
        attribute('object', { dependentRequired: { a: 'b' } }),
        'attributes[0].dependentRequired',
        /map/,
      ],
      ['a non-list required', attribute('object', { required: 'a' }), 'attributes[0].required', /array/],
      [
        'a bad additionalProperties',
        attribute('object', { additionalProperties: 'no' }),
        'attributes[0].additionalProperties',
        /must be an object/,
      ],
      [
        'a map property whose attributeName differs',
        attribute('object', { properties: { a: { attributeName: 'b', schemaDataType: 'string' } } }),
        'attributes[0].properties.a.attributeName',
        /key/,
      ],
      [
        'a nested property without a name',
        attribute('object', { properties: [{ schemaDataType: 'string' }] }),
        'attributes[0].properties[0].attributeName',
        /string/,
      ],
      [
        'a missing displayName',
        { attributeName: 'a', schemaDataType: 'string', isRequired: true },
        'attributes[0].displayName',
        /required/,
      ],
      [
        'a missing isRequired',
        { attributeName: 'a', displayName: 'A', schemaDataType: 'string' },
        'attributes[0].isRequired',
        /required/,
      ],
      ['a non-boolean isRequired', attribute('string', { isRequired: 'yes' }), 'attributes[0].isRequired', /boolean/],
      [
        'a JSON-LD keyword as name',
        attribute('string', {}, '@id'),
        'attributes[0].attributeName',
        /cannot be an attribute name/,
      ],
      ['a blank name', attribute('string', {}, '  '), 'attributes[0].attributeName', /not blank/],
      ['a non-object definition', 'name', 'attributes[0]', /must be an object/],
    ])('%s', (_case, definition, path, message) => {
      const fields = rejection([definition])
      expect(fields).toContainEqual({ field: `schemaPayload.${path}`, message: expect.stringMatching(message) })
    })

    it('prototype keys in required and dependentRequired', () => {
      const dependent = attribute('object', { dependentRequired: JSON.parse('{"__proto__": ["a"]}') as unknown })
      expect(rejection([dependent])[0].field).toBe('schemaPayload.attributes[0].dependentRequired')
      expect(rejection([attribute('object', { required: ['__proto__'] })])[0].field).toBe(
        'schemaPayload.attributes[0].required',
      )
      expect(rejection([attribute('object', { required: ['a', 'a'] })])[0].message).toMatch(/distinct/)
    })

    it('a repeated attribute name, an empty or non-list attribute set', () => {
      expect(rejection([attribute('string', {}, 'a'), attribute('integer', {}, 'a')])).toEqual([
        { field: 'schemaPayload.attributes[1].attributeName', message: '"a" is defined twice' },
      ])
      expect(rejection([])).toEqual([
        { field: 'schemaPayload.attributes', message: 'must have at least one attribute' },
      ])
      expect(rejection({ a: 1 })).toEqual([{ field: 'schemaPayload.attributes', message: 'must be an array' }])
    })

    it('nesting deeper than the bound', () => {
      let definition: Definition = { schemaDataType: 'string' }
      for (let level = 0; level < 6; level += 1) definition = { schemaDataType: 'array', items: definition }
      const fields = rejection([attribute('array', { items: definition })])
      expect(fields[0].message).toMatch(/nests deeper/)
    })

    it('every error at once, in one answer', () => {
      const fields = rejection([
        attribute('string', { minLength: 3, maxLength: 1 }),
        attribute('number', { pattern: 'x' }, 'n'),
      ])
      expect(fields.map((field) => field.field)).toEqual([
        'schemaPayload.attributes[0].minLength',
        'schemaPayload.attributes[1].pattern',
      ])
    })
  })

  it('either refuses a definition with InvalidInputError or builds a schema ajv compiles and runs', () => {
    const count = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(-1, 1.5))
    const bound = fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double({ min: -10, max: 10, noNaN: true }))
    const constraintValues: Record<string, fc.Arbitrary<unknown>> = {
      minLength: count,
      maxLength: count,
      pattern: fc.constantFrom('^[a-z]+$', '(a|b)*', '\\p{L}+', '[', '(?<n>x)\\k<n>', '^\\d{2,3}$', '(a+)+'),
      enum: fc.array(fc.constantFrom('a', 'bb', 'ccc'), { minLength: 1, maxLength: 3 }),
      contentEncoding: fc.constantFrom('base64', 'base16', 'rot13'),
      contentMediaType: fc.constantFrom('text/plain', 'application/json', 'png'),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: bound,
      exclusiveMaximum: bound,
      multipleOf: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(0.1, 0.25)),
      minItems: count,
      maxItems: count,
      uniqueItems: fc.boolean(),
      minProperties: count,
      maxProperties: count,
      required: fc.array(fc.constantFrom('p', 'q'), { maxLength: 2 }),
      dependentRequired: fc.dictionary(
        fc.constantFrom('p', 'q'),
        fc.array(fc.constantFrom('p', 'q'), { maxLength: 2 }),
      ),
      additionalProperties: fc.boolean(),
    }
    const typeKeys: Record<string, string[]> = {
      string: ['minLength', 'maxLength', 'pattern', 'enum', 'contentEncoding', 'contentMediaType'],
      number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
      integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
      boolean: [],
      date: [],
      datetime: [],
      array: ['minItems', 'maxItems', 'uniqueItems'],
      object: ['minProperties', 'maxProperties', 'required', 'dependentRequired', 'additionalProperties'],
    }
    const allKeys = Object.keys(constraintValues)
    const { definition } = fc.letrec<{ definition: Definition }>((tie) => ({
      definition: fc
        .tuple(
          fc.constantFrom(...Object.keys(typeKeys)),
          fc.integer({ min: 0, max: 9 }),
          fc.infiniteStream(fc.integer({ min: 0, max: 1000 })),
          fc.option(tie('definition'), { nil: undefined, depthSize: 'small' }),
        )
        .chain(([type, noise, picks, nested]) => {
          // Mostly the constraints of the type, sometimes one of another type (which must be refused).
          const own = typeKeys[type]
          const keys =
            noise === 0
              ? [allKeys[picks.next().value % allKeys.length]]
              : own.filter(() => picks.next().value % 2 === 0)
          return fc.record(Object.fromEntries(keys.map((key) => [key, constraintValues[key]]))).map((fields) => {
            const built: Definition = { schemaDataType: type, ...fields }
            if (nested && type === 'array') built.items = nested
            if (nested && type === 'object') built.properties = { p: nested, q: { schemaDataType: 'string' } }
            return built
          })
        }),
    }))
    const ajv = new Ajv2020({ allErrors: true, strict: false, code: { regExp: linearRegExpEngine } })
    addFormats(ajv)
    let built = 0
    fc.assert(
      fc.property(fc.array(definition, { minLength: 1, maxLength: 2 }), fc.jsonValue(), (definitions, claim) => {
        const named = definitions.map((entry, index) => ({
          ...entry,
          attributeName: `a${index}`,
          displayName: 'A',
          isRequired: index === 0,
        }))
        let schema: JsonSchemaNode
        try {
          schema = build(named)
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidInputError)
          return
        }
        built += 1
        const validate = ajv.compile(schema)
        validate({
          '@context': ['x'],
          type: 'VerifiableCredential',
          issuer: 'did:example:1',
          credentialSubject: { a0: claim },
        })
      }),
      { numRuns: 400, seed: 20261124 },
    )
    // The generator must reach the building side often enough for the property to mean something.
    expect(built).toBeGreaterThan(50)
  })
})
