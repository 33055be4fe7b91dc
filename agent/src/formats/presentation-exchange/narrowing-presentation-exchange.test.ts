import { type BaseRecord, JsonTransformer, W3cCredentialRecord, W3cJsonLdVerifiableCredential } from '@credo-ts/core'

import { aDegreeCredentialWithProof, aDegreePresentationDefinition } from '../../../../test/fixtures/degree-credential'
import { toRow } from '../../adapters/storage/record-rows'
import type { PresentationDefinitionV1Like } from './candidate-prefilter'
import { mayMatchRow } from './narrowing-presentation-exchange'

function aStoredDegree(name: string) {
  const credential = JsonTransformer.fromJSON(
    aDegreeCredentialWithProof('did:key:z6MkIssuer', 'did:key:z6MkHolder', name),
    W3cJsonLdVerifiableCredential,
  )
  return new W3cCredentialRecord({ credentialInstances: [{ credential: credential.encoded }], tags: {} })
}

const definitionFor = (name: string) =>
  aDegreePresentationDefinition([
    { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: name } },
  ]) as unknown as PresentationDefinitionV1Like

describe('mayMatchRow', () => {
  it('rules out a stored JSON-LD credential as the test on its instance does, and keeps the one that may match', () => {
    const row = toRow(aStoredDegree('BSc Physics') as unknown as BaseRecord)
    expect(mayMatchRow(row, definitionFor('BSc Physics'))).toBe(true)
    // The row's credential is read from its JSON once, then remembered.
    const parse = jest.spyOn(JSON, 'parse')
    try {
      expect(mayMatchRow(row, definitionFor('MSc Physics'))).toBe(false)
      expect(parse).not.toHaveBeenCalled()
    } finally {
      parse.mockRestore()
    }
  })

  it('leaves a credential it cannot read as JSON-LD to PEX', () => {
    const jwt = {
      id: 'jwt',
      json: JSON.stringify({ credentialInstances: [{ credential: 'eyJhbGciOi.e30.sig' }] }),
      tags: {},
    }
    const odd = { id: 'odd', json: JSON.stringify({ something: 'else' }), tags: {} }
    expect(mayMatchRow(jwt, definitionFor('MSc Physics'))).toBe(true)
    expect(mayMatchRow(odd, definitionFor('MSc Physics'))).toBe(true)
  })
})
