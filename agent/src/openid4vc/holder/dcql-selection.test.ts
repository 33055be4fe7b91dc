import { ClaimFormat, type DcqlCredentialsForRequest, type DcqlQueryResult } from '@credo-ts/core'
import { InvalidInputError, InvalidStateError } from '@idplane/common'

import { type CredentialSelection, selectDcqlCredentials } from './dcql-selection'

/** A query result shaped as Credo's DcqlService returns it, with stand-in records. */
function aResult(options: { canBeSatisfied?: boolean } = {}): DcqlQueryResult {
  const candidate = (id: string, type: string, output: unknown) => ({
    record: { id, type, firstCredential: { claimFormat: ClaimFormat.JwtVc, jsonCredential: { id } } },
    claims: { valid_claim_sets: [{ output }] },
  })
  return {
    can_be_satisfied: options.canBeSatisfied ?? true,
    credentials: [{ id: 'employee' }, { id: 'mdl' }, { id: 'degree' }],
    credential_matches: {
      employee: {
        success: true,
        valid_credentials: [
          candidate('sd1', 'SdJwtVcRecord', { given_name: 'Ada', address: { locality: 'Vienna' } }),
          candidate('sd2', 'SdJwtVcRecord', { given_name: 'Grace', address: { locality: 'Graz' } }),
        ],
      },
      mdl: {
        success: true,
        valid_credentials: [candidate('m1', 'MdocRecord', { ns: { given_name: 'Ada', age_over_18: true } })],
      },
      degree: { success: true, valid_credentials: [candidate('w1', 'W3cCredentialRecord', {})] },
    },
  } as unknown as DcqlQueryResult
}

const automatic = (result: DcqlQueryResult): DcqlCredentialsForRequest =>
  Object.fromEntries(
    Object.entries(result.credential_matches).map(([id, match]) => [
      id,
      [
        {
          claimFormat: ClaimFormat.SdJwtDc,
          credentialRecord: (match as { valid_credentials: { record: unknown }[] }).valid_credentials[0].record,
          disclosedPayload: {},
        },
      ],
    ]),
  ) as unknown as DcqlCredentialsForRequest

describe('selectDcqlCredentials', () => {
  it("keeps Credo's automatic choice where the holder chose nothing", () => {
    const chosen = selectDcqlCredentials(aResult(), {}, automatic)
    expect(Object.keys(chosen)).toEqual(['employee', 'mdl', 'degree'])
  })

  it('presents the credential the holder names, without the claims the holder withholds', () => {
    const chosen = selectDcqlCredentials(
      aResult(),
      {
        employee: { credentialId: 'sd2', withhold: [['address', 'locality']] },
        mdl: { withhold: [['ns', 'given_name']] },
      },
      automatic,
    )
    expect(chosen.employee[0]).toMatchObject({
      claimFormat: ClaimFormat.SdJwtDc,
      credentialRecord: { id: 'sd2' },
      disclosedPayload: { given_name: 'Grace', address: {} },
    })
    expect(chosen.mdl[0]).toMatchObject({
      claimFormat: ClaimFormat.MsoMdoc,
      disclosedPayload: { ns: { age_over_18: true } },
    })
  })

  it('leaves out a query the holder omits', () => {
    expect(Object.keys(selectDcqlCredentials(aResult(), { degree: { omit: true } }, automatic))).toEqual([
      'employee',
      'mdl',
    ])
  })

  it('refuses unknown queries, credentials that do not answer, unrequested claims and withheld W3C claims', () => {
    expect(() => selectDcqlCredentials(aResult(), { other: {} }, automatic)).toThrow(InvalidInputError)
    expect(() => selectDcqlCredentials(aResult(), { employee: { credentialId: 'm1' } }, automatic)).toThrow(
      InvalidInputError,
    )
    expect(() => selectDcqlCredentials(aResult(), { employee: { withhold: [['family_name']] } }, automatic)).toThrow(
      expect.objectContaining({
        fields: [{ field: 'selections.employee.withhold', message: '["family_name"] is not a requested claim' }],
      }),
    )
    expect(() => selectDcqlCredentials(aResult(), { degree: { withhold: [['id']] } }, automatic)).toThrow(
      expect.objectContaining({
        fields: [{ field: 'selections.degree.withhold', message: 'only SD-JWT VC and mdoc claims can be withheld' }],
      }),
    )
  })

  it('refuses selections of the wrong JSON types by field, rather than failing on them', () => {
    const selections = {
      employee: null,
      mdl: { credentialId: 7, omit: 'yes', withhold: 3 },
      degree: { withhold: [['a', 1]] },
    } as unknown as Record<string, CredentialSelection>
    expect(() => selectDcqlCredentials(aResult(), selections, automatic)).toThrow(
      expect.objectContaining({
        fields: [
          { field: 'selections.employee', message: 'must be an object' },
          { field: 'selections.mdl.credentialId', message: 'must be a string' },
          { field: 'selections.mdl.omit', message: 'must be a boolean' },
          { field: 'selections.mdl.withhold', message: 'must be a list of claim paths (lists of strings)' },
          { field: 'selections.degree.withhold', message: 'must be a list of claim paths (lists of strings)' },
        ],
      }),
    )
  })

  it('answers nothing when the request cannot be satisfied and nothing is chosen', () => {
    expect(() => selectDcqlCredentials(aResult({ canBeSatisfied: false }), {}, automatic)).toThrow(InvalidStateError)
    const partial = selectDcqlCredentials(aResult({ canBeSatisfied: false }), { mdl: {} }, automatic)
    expect(Object.keys(partial)).toEqual(['mdl'])
  })
})
