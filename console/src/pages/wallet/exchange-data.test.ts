import { offerPreview, requestPreview } from './exchange-data'

describe('what the wallet shows before the holder answers', () => {
  it('reads a JSON-LD offer: types, issuer, subject id and the offered attributes', () => {
    const preview = offerPreview({
      offer: {
        jsonld: {
          credential: {
            type: ['VerifiableCredential', 'EmployeeBadge'],
            issuer: { id: 'did:key:z6Mkissuer' },
            credentialSubject: { id: 'did:key:z6Mkholder', name: 'Holly', level: 3, address: { city: 'Bern' } },
          },
        },
      },
    })
    expect(preview).toEqual({
      format: 'jsonld',
      types: ['EmployeeBadge'],
      issuer: 'did:key:z6Mkissuer',
      subjectId: 'did:key:z6Mkholder',
      attributes: [
        ['name', 'Holly'],
        ['level', '3'],
        ['address', '{"city":"Bern"}'],
      ],
    })
  })

  it('reads an AnonCreds offer from its offered attributes', () => {
    expect(
      offerPreview({
        offer: { anoncreds: { schema_id: 'x' } },
        offerAttributes: [
          { name: 'member', value: 'Holly' },
          { name: 'age', value: '34' },
        ],
      }),
    ).toEqual({
      format: 'anoncreds',
      types: [],
      attributes: [
        ['member', 'Holly'],
        ['age', '34'],
      ],
    })
  })

  it('lists the fields a presentation definition asks for, in words where the path is not a subject attribute', () => {
    const preview = requestPreview({
      request: {
        presentationExchange: {
          presentation_definition: {
            purpose: 'Badge check',
            input_descriptors: [
              {
                constraints: {
                  fields: [
                    { path: ['$.credentialSchema.id'] },
                    { path: ['$.credentialSubject.name'] },
                    { path: ['$.credentialSubject.level', '$.level'] },
                  ],
                },
              },
            ],
          },
        },
      },
    })
    expect(preview).toEqual({
      format: 'presentation-exchange',
      purpose: 'Badge check',
      disclosed: ['the schema the credential follows', 'name', 'level'],
      proven: [],
    })
  })

  it('says a definition without fields asks for the whole credential', () => {
    const preview = requestPreview({
      request: { presentationExchange: { presentation_definition: { input_descriptors: [{}] } } },
    })
    expect(preview.disclosed).toEqual(['the whole credential (the request names no fields)'])
  })

  it('separates AnonCreds attributes (disclosed) from predicates (proven without the value)', () => {
    expect(
      requestPreview({
        request: {
          anoncreds: {
            requested_attributes: { a: { name: 'member' }, g: { names: ['first', 'last'] } },
            requested_predicates: { p: { name: 'age', p_type: '>=', p_value: 18 } },
          },
        },
      }),
    ).toEqual({ format: 'anoncreds', disclosed: ['member', 'first', 'last'], proven: ['age >= 18'] })
  })

  it('shows nothing it cannot read', () => {
    expect(requestPreview({})).toEqual({ format: 'unknown', disclosed: [], proven: [] })
    expect(offerPreview({})).toEqual({ format: 'unknown', types: [], attributes: [] })
  })
})
