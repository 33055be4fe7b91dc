import type { OpenId4VciResolvedCredentialOffer } from '@credo-ts/openid4vc'

import { describeQuery, offeredClaimsOf, summarizeOffer, typeOfConfiguration } from './holder-views'

describe('the holder views', () => {
  it.each([
    [{ format: 'dc+sd-jwt', vct: 'https://acme.example/employee' }, { type: 'https://acme.example/employee' }],
    [{ format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' }, { type: 'org.iso.18013.5.1.mDL' }],
    [
      { format: 'jwt_vc_json', credential_definition: { type: ['VerifiableCredential', 'Degree'] } },
      { type: ['VerifiableCredential', 'Degree'] },
    ],
    [{ format: 'unknown' }, {}],
  ])('names the type an offered configuration declares: %j', (configuration, expected) => {
    expect(typeOfConfiguration(configuration)).toEqual(expected)
  })

  it('lists the claims a configuration declares, with mandatory and display name, skipping ones without a path', () => {
    const configuration = {
      credential_metadata: {
        claims: [
          { path: ['given_name'], mandatory: true, display: [{ name: 'Given name', locale: 'en' }] },
          { path: ['address', 'locality'] },
          { mandatory: true },
        ],
      },
    }
    expect(offeredClaimsOf(configuration)).toEqual([
      { path: ['given_name'], mandatory: true, name: 'Given name' },
      { path: ['address', 'locality'] },
    ])
    expect(offeredClaimsOf({})).toEqual([])
  })

  it('says whether the request needs a query: always without credential sets, else per required set', () => {
    const query = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:pid'] } }
    expect(describeQuery(query, [])).toEqual({ id: 'pid', format: 'dc+sd-jwt', type: ['urn:pid'], isRequired: true })
    expect(describeQuery(query, [{ options: [['pid'], ['mdl']] }]).isRequired).toBe(false)
    expect(describeQuery(query, [{ options: [['pid', 'mdl']] }]).isRequired).toBe(true)
    expect(describeQuery(query, [{ options: [['pid']], required: false }]).isRequired).toBe(false)
  })

  it('carries the claims and claim sets a query asks for', () => {
    const described = describeQuery(
      {
        id: 'employee',
        format: 'dc+sd-jwt',
        claims: [
          { id: 'given', path: ['given_name'] },
          { path: ['department'], values: ['Engines'] },
        ],
        claim_sets: [['given'], []],
      },
      [],
    )
    expect(described).toEqual({
      id: 'employee',
      format: 'dc+sd-jwt',
      claims: [
        { id: 'given', path: ['given_name'] },
        { path: ['department'], values: ['Engines'] },
      ],
      claimSets: [['given'], []],
      isRequired: true,
    })
  })

  it('summarizes a pre-authorized offer with its transaction code', () => {
    const resolved = {
      credentialOfferPayload: {
        grants: {
          'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
            'pre-authorized_code': 'code',
            tx_code: { length: 6, input_mode: 'numeric', description: 'Sent by mail' },
          },
        },
      },
      metadata: { credentialIssuer: { credential_issuer: 'https://issuer.example', display: [{ name: 'Acme' }] } },
      offeredCredentialConfigurations: {
        employee: {
          format: 'dc+sd-jwt',
          vct: 'urn:employee',
          credential_metadata: { display: [{ name: 'Employee' }], claims: [{ path: ['given_name'] }] },
        },
      },
    } as unknown as OpenId4VciResolvedCredentialOffer
    expect(summarizeOffer(resolved)).toEqual({
      credentialIssuer: 'https://issuer.example',
      issuerName: 'Acme',
      credentials: [
        {
          configurationId: 'employee',
          format: 'dc+sd-jwt',
          name: 'Employee',
          type: 'urn:employee',
          claims: [{ path: ['given_name'] }],
        },
      ],
      isPreAuthorized: true,
      txCode: { length: 6, inputMode: 'numeric', description: 'Sent by mail' },
    })
  })
})
