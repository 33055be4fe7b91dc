import { formatViolations } from './format-conformance'

const credential = (proofType: string, extra: Record<string, unknown> = {}) => ({
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  credentialSubject: { id: 'did:key:holder' },
  proof: { type: proofType, proofPurpose: 'assertionMethod', ...extra },
})

const presentation = (credentials: unknown[], vpProofType = 'Ed25519Signature2020', descriptorIds = ['degree']) => ({
  type: ['VerifiablePresentation'],
  verifiableCredential: credentials,
  proof: { type: vpProofType, proofPurpose: 'authentication' },
  presentation_submission: {
    id: 's',
    definition_id: 'd',
    descriptor_map: descriptorIds.map((id, index) => ({
      id,
      format: 'ldp_vc',
      path: `$.verifiableCredential[${index}]`,
    })),
  },
})

const descriptor = (format?: Record<string, unknown>) => ({ id: 'degree', ...(format ? { format } : {}) })

describe('formatViolations', () => {
  it('accepts anything when the definition names no format', () => {
    expect(
      formatViolations({ input_descriptors: [descriptor()] }, presentation([credential('Ed25519Signature2018')])),
    ).toEqual([])
  })

  it('refuses a 2018-signed credential where ldp_vc asks for Ed25519Signature2020', () => {
    const definition = {
      format: { ldp_vc: { proof_type: ['Ed25519Signature2020'] } },
      input_descriptors: [descriptor()],
    }
    expect(formatViolations(definition, presentation([credential('Ed25519Signature2018')]))).toEqual([
      'credential 0 is signed with Ed25519Signature2018; the format asks for Ed25519Signature2020',
    ])
    expect(formatViolations(definition, presentation([credential('Ed25519Signature2020')]))).toEqual([])
  })

  it('checks the presentation proof against ldp_vp and both against ldp', () => {
    const vp = { format: { ldp_vp: { proof_type: ['Ed25519Signature2020'] } }, input_descriptors: [descriptor()] }
    expect(formatViolations(vp, presentation([credential('Ed25519Signature2018')], 'Ed25519Signature2018'))).toEqual([
      'the presentation is signed with Ed25519Signature2018; the presentation format asks for Ed25519Signature2020',
    ])
    const ldp = { format: { ldp: { proof_type: 'Ed25519Signature2020' } }, input_descriptors: [descriptor()] }
    expect(formatViolations(ldp, presentation([credential('Ed25519Signature2018')]))).toHaveLength(1)
  })

  it('refuses a Linked Data presentation where only JWT formats are named', () => {
    const definition = { format: { jwt_vc: { alg: ['EdDSA'] } }, input_descriptors: [descriptor()] }
    expect(formatViolations(definition, presentation([credential('Ed25519Signature2020')]))[0]).toMatch(
      /accepts only jwt_vc/,
    )
  })

  it("applies an input descriptor's format to the credentials mapped to it only", () => {
    const definition = {
      input_descriptors: [descriptor({ ldp_vc: { proof_type: ['Ed25519Signature2020'] } }), { id: 'other' }],
    }
    const both = presentation([credential('Ed25519Signature2020'), credential('Ed25519Signature2018')], undefined, [
      'degree',
      'other',
    ])
    expect(formatViolations(definition, both)).toEqual([])
    const swapped = presentation([credential('Ed25519Signature2018'), credential('Ed25519Signature2020')], undefined, [
      'degree',
      'other',
    ])
    expect(formatViolations(definition, swapped)).toEqual([
      'credential 0 (input descriptor degree) is signed with Ed25519Signature2018; the input descriptor format asks for Ed25519Signature2020',
    ])
  })

  it('checks a DataIntegrityProof cryptosuite and refuses proofless credentials', () => {
    const definition = {
      format: { di_vc: { proof_type: ['DataIntegrityProof'], cryptosuite: ['eddsa-rdfc-2022'] } },
      input_descriptors: [descriptor()],
    }
    const wrongSuite = credential('DataIntegrityProof', { cryptosuite: 'ecdsa-rdfc-2019' })
    expect(formatViolations(definition, presentation([wrongSuite], 'DataIntegrityProof'))[0]).toMatch(
      /cryptosuite ecdsa-rdfc-2019/,
    )
    const vcFormat = { format: { ldp_vc: { proof_type: ['Ed25519Signature2020'] } }, input_descriptors: [descriptor()] }
    const { proof: _proof, ...unsigned } = credential('Ed25519Signature2020')
    expect(formatViolations(vcFormat, presentation([unsigned]))).toEqual(['credential 0 carries no proof'])
    expect(formatViolations(vcFormat, 'not an object')).toHaveLength(1)
  })
})
