import {
  arrayOf,
  dateTime,
  integer,
  nullable,
  object,
  optional,
  pageOf,
  string,
  uuid,
  type SchemaComponents,
} from './data-schema'

interface Thing {
  id: string
  label: string | null
  note?: string
  createdAt: string
}

const THING = object<Thing>('Thing', { id: uuid, label: nullable(string), note: optional(string), createdAt: dateTime })

describe('data schemas', () => {
  it('renders a named object once into the components and refers to it', () => {
    const components: SchemaComponents = {}
    expect(arrayOf(THING).render(components)).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Thing' } })
    expect(components.Thing).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        label: { type: 'string', nullable: true },
        note: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
      },
      required: ['id', 'label', 'createdAt'],
      additionalProperties: false,
    })
  })

  it('wraps a nullable reference, since a $ref takes no siblings in OpenAPI 3.0', () => {
    expect(nullable(THING).render({})).toEqual({ nullable: true, allOf: [{ $ref: '#/components/schemas/Thing' }] })
  })

  it('renders the paginated payload around the item schema', () => {
    const page = pageOf(integer).render({})
    expect(page).toMatchObject({
      required: ['totalItems', 'hasNextPage', 'hasPreviousPage', 'nextPage', 'previousPage', 'lastPage', 'data'],
      properties: {
        nextPage: { type: 'integer', nullable: true },
        data: { type: 'array', items: { type: 'integer' } },
      },
    })
  })
})
