import 'reflect-metadata'
import { plainToInstance } from 'class-transformer'
import { validate, type ValidationError } from 'class-validator'
import { OobProofRequestDto, RequestProofDto, RequestProofV2Dto } from './request-proof.dto'

const definition = () => ({
  id: 'degree',
  purpose: 'Show your degree',
  format: { ldp_vc: { proof_type: ['Ed25519Signature2020'] } },
  input_descriptors: [
    {
      id: 'degree',
      name: 'Degree',
      schema: [{ uri: 'https://www.w3.org/2018/credentials/examples/v1' }],
      constraints: {
        fields: [{ path: ['$.credentialSubject.degree.type'], filter: { type: 'string', const: 'BachelorDegree' } }],
      },
    },
  ],
})

/** The paths of every failing property, nested ones joined with dots, as the API's 400 names them. */
function failingPaths(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = `${prefix}${error.property}`
    return error.children && error.children.length > 0 ? failingPaths(error.children, `${path}.`) : [path]
  })
}

async function problems(dto: new () => object, body: unknown): Promise<string[]> {
  const instance = plainToInstance(dto, body)
  return failingPaths(await validate(instance, { whitelist: true, forbidNonWhitelisted: true }))
}

const connectionId = '6f1c1e34-8a6a-4a55-9a55-0d0a6d7f0b11'

describe('proof request bodies', () => {
  it('accept a complete presentation definition', async () => {
    expect(await problems(RequestProofDto, { connectionId, presentationDefinition: definition() })).toEqual([])
  })

  it('require the definition id, at least one input descriptor, and each descriptor id and schema uri', async () => {
    const { id: _id, ...withoutId } = definition()
    expect(await problems(RequestProofDto, { connectionId, presentationDefinition: withoutId })).toEqual([
      'presentationDefinition.id',
    ])
    expect(
      await problems(RequestProofDto, {
        connectionId,
        presentationDefinition: { ...definition(), input_descriptors: [] },
      }),
    ).toEqual(['presentationDefinition.input_descriptors'])
    const badDescriptor = { ...definition().input_descriptors[0], id: '', schema: [{}] }
    expect(
      await problems(RequestProofDto, {
        connectionId,
        presentationDefinition: { ...definition(), input_descriptors: [badDescriptor] },
      }),
    ).toEqual([
      'presentationDefinition.input_descriptors.0.id',
      'presentationDefinition.input_descriptors.0.schema.0.uri',
    ])
    const { schema: _schema, ...withoutSchema } = definition().input_descriptors[0]
    expect(
      await problems(RequestProofDto, {
        connectionId,
        presentationDefinition: { ...definition(), input_descriptors: [withoutSchema] },
      }),
    ).toEqual(['presentationDefinition.input_descriptors.0.schema'])
  })

  it('require constraint field paths to be a non-empty array of strings', async () => {
    const withPath = (path: unknown) => ({
      ...definition(),
      input_descriptors: [{ ...definition().input_descriptors[0], constraints: { fields: [{ path }] } }],
    })
    for (const path of ['$.credentialSubject', [], [1], [''], undefined]) {
      expect(await problems(RequestProofDto, { connectionId, presentationDefinition: withPath(path) })).toEqual([
        'presentationDefinition.input_descriptors.0.constraints.fields.0.path',
      ])
    }
  })

  it('refuse keys PE v1 does not have, at any depth', async () => {
    expect(
      await problems(RequestProofDto, { connectionId, presentationDefinition: { ...definition(), extra: 1 } }),
    ).toEqual(['presentationDefinition.extra'])
  })

  it('take one UUID connectionId in v1 and a non-empty UUID array in v2', async () => {
    const presentationDefinition = definition()
    expect(await problems(RequestProofDto, { connectionId: 'nope', presentationDefinition })).toEqual(['connectionId'])
    expect(await problems(RequestProofDto, { connectionId: [connectionId], presentationDefinition })).toEqual([
      'connectionId',
    ])
    expect(await problems(RequestProofV2Dto, { connectionId: [connectionId], presentationDefinition })).toEqual([])
    expect(await problems(RequestProofV2Dto, { connectionId: [], presentationDefinition })).toEqual(['connectionId'])
    expect(await problems(RequestProofV2Dto, { connectionId, presentationDefinition })).toEqual(['connectionId'])
  })

  it('check the OOB fields: e-mail addresses, flags and label', async () => {
    const presentationDefinition = definition()
    expect(
      await problems(OobProofRequestDto, {
        presentationDefinition,
        emailId: ['holder@example.com'],
        isShortenUrl: false,
        reuseConnection: true,
        label: 'Verifier',
      }),
    ).toEqual([])
    expect(await problems(OobProofRequestDto, { presentationDefinition, emailId: ['not-an-address'] })).toEqual([
      'emailId',
    ])
    expect(await problems(OobProofRequestDto, { presentationDefinition, isShortenUrl: 'yes' })).toEqual([
      'isShortenUrl',
    ])
  })
})
