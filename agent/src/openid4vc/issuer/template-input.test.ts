import { InvalidInputError } from '@idplane/common'

import { checkTemplateInput, type CredentialTemplateInput } from './template-input'

const sdJwt: CredentialTemplateInput = {
  name: 'Employee',
  format: 'dc+sd-jwt',
  vct: 'https://acme.example/employee',
  claims: [{ path: ['given_name'], mandatory: true }, { path: ['address', 'locality'] }],
  signer: { method: 'did', did: 'did:key:z6Mk' },
}

function fieldsOf(input: CredentialTemplateInput): string[] {
  try {
    checkTemplateInput(input)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as InvalidInputError).fields.map((field) => field.field)
  }
  return []
}

describe('checkTemplateInput', () => {
  it('accepts a template of each format and defaults to the pre-authorized flow', () => {
    expect(checkTemplateInput(sdJwt).authorization).toEqual({ type: 'pre-authorized' })
    expect(
      fieldsOf({
        name: 'mDL',
        format: 'mso_mdoc',
        doctype: 'org.iso.18013.5.1.mDL',
        claims: [{ path: ['org.iso.18013.5.1', 'given_name'] }],
        signer: { method: 'x5c' },
      }),
    ).toEqual([])
    expect(
      fieldsOf({
        name: 'Degree',
        format: 'jwt_vc_json',
        types: ['VerifiableCredential', 'Degree'],
        claims: [{ path: ['degree'] }],
        signer: { method: 'did', did: 'did:key:z6Mk' },
        authorization: { type: 'external', authorizationServerUrl: 'https://auth.acme.example' },
      }),
    ).toEqual([])
  })

  it.each<[string, Partial<CredentialTemplateInput>, string[]]>([
    ['an unknown format (and vct without dc+sd-jwt)', { format: 'ldp_vc' as never }, ['format', 'vct']],
    ['dc+sd-jwt without vct', { vct: undefined }, ['vct']],
    ['a doctype on dc+sd-jwt', { doctype: 'x' }, ['doctype']],
    ['no claims', { claims: [] }, ['claims']],
    ['an empty path', { claims: [{ path: [] }] }, ['claims[0].path']],
    ['a claim twice', { claims: [{ path: ['a'] }, { path: ['a'] }] }, ['claims[1].path']],
    [
      'a claim the issuer sets',
      { claims: [{ path: ['cnf'] }, { path: ['iss'] }] },
      ['claims[0].path', 'claims[1].path'],
    ],
    ['a non-boolean mandatory', { claims: [{ path: ['a'], mandatory: 'yes' as never }] }, ['claims[0].mandatory']],
    ['a signer without method', { signer: {} as never }, ['signer.method']],
    ['a signer DID that is not a DID', { signer: { method: 'did', did: 'acme' } }, ['signer.did']],
    ['validity of 0 days', { validityDays: 0 }, ['validityDays']],
    ['a logo over http', { display: [{ name: 'x', logoUri: 'http://acme.example/logo.png' }] }, ['display[0].logoUri']],
    [
      'a presentation without a DCQL query',
      { authorization: { type: 'presentation', dcql: {} } },
      ['authorization.dcql'],
    ],
    ['an unknown authorization', { authorization: { type: 'password' } as never }, ['authorization.type']],
  ])('refuses %s', (_case, change, fields) => {
    expect(fieldsOf({ ...sdJwt, ...change })).toEqual(fields)
  })

  it('keeps format rules: mdoc paths of two, x5c only for mdoc, DIDs for W3C, disclosures only for SD-JWT', () => {
    expect(
      fieldsOf({
        name: 'mDL',
        format: 'mso_mdoc',
        doctype: 'mdl',
        claims: [{ path: ['given_name'] }, { path: ['ns', 'age'], selectivelyDisclosable: true }],
        signer: { method: 'did', did: 'did:key:z6Mk' },
      }),
    ).toEqual(['claims[0].path', 'claims[1].selectivelyDisclosable', 'signer.method'])
    expect(
      fieldsOf({
        name: 'Degree',
        format: 'jwt_vc_json',
        types: ['Degree'],
        claims: [{ path: ['id'] }],
        signer: { method: 'x5c' },
      }),
    ).toEqual(['types', 'claims[0].path', 'signer.method'])
  })
})
