import { credentialConfigurationFor } from './credential-configuration'

const common = {
  id: 't1',
  claims: [
    { path: ['given_name'], mandatory: true, display: [{ name: 'Given name', locale: 'en' }] },
    { path: ['nickname'] },
  ],
  authorization: { type: 'pre-authorized' as const },
}

describe('credentialConfigurationFor', () => {
  it('describes an SD-JWT VC the OID4VCI 1.0 way, scope = template id, keys or DIDs for holder binding', () => {
    expect(
      credentialConfigurationFor({
        ...common,
        format: 'dc+sd-jwt',
        vct: 'https://acme.example/employee',
        display: [
          {
            name: 'Employee',
            locale: 'en',
            backgroundColor: '#fff',
            logoUri: 'https://acme.example/l.png',
            logoAltText: 'logo',
          },
        ],
      }),
    ).toEqual({
      format: 'dc+sd-jwt',
      vct: 'https://acme.example/employee',
      scope: 't1',
      cryptographic_binding_methods_supported: ['jwk', 'did:key', 'did:jwk'],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256', 'EdDSA'] } },
      credential_metadata: {
        display: [
          {
            name: 'Employee',
            locale: 'en',
            background_color: '#fff',
            logo: { uri: 'https://acme.example/l.png', alt_text: 'logo' },
          },
        ],
        claims: [
          { path: ['given_name'], mandatory: true, display: [{ name: 'Given name', locale: 'en' }] },
          { path: ['nickname'] },
        ],
      },
    })
  })

  it('binds mdocs to COSE keys and lists COSE algorithms, W3C JWT VCs to DIDs with their types', () => {
    expect(
      credentialConfigurationFor({ ...common, format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' }),
    ).toMatchObject({
      format: 'mso_mdoc',
      doctype: 'org.iso.18013.5.1.mDL',
      cryptographic_binding_methods_supported: ['cose_key'],
      credential_signing_alg_values_supported: [-7, -8],
    })
    expect(
      credentialConfigurationFor({ ...common, format: 'jwt_vc_json', types: ['VerifiableCredential', 'Degree'] }),
    ).toMatchObject({
      format: 'jwt_vc_json',
      credential_definition: { type: ['VerifiableCredential', 'Degree'] },
      cryptographic_binding_methods_supported: ['did:key', 'did:jwk'],
    })
  })
})
