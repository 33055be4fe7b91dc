import { ClaimFormat, DcqlService, X509Certificate } from '@credo-ts/core'

import { rememberDcqlAuthorities } from './dcql-authority-memo'

// Self-signed P-256 certificates made with openssl for this test: two with an authority key identifier, one without.
const WITH_AKI = [
  'MIIBhzCCAS2gAwIBAgIUIKXUxzt+SAZoDIN3+d45ce5mjhEwCgYIKoZIzj0EAwIwGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYTAgFw0yNjEyMDUwNzUzMjdaGA8yMTI2MTExMTA3NTMyN1owGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABCpiff7gJVbbCW/zCzJM9XiPgmEPemn96oaSfG/uBQoaBE9M0ozGfW3L6EvpJjU+4VKXQj+eM+Se/n+jGryfXtCjUzBRMB0GA1UdDgQWBBS/eAEB4Ooq6qPgio9okelCo978dzAfBgNVHSMEGDAWgBS/eAEB4Ooq6qPgio9okelCo978dzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCG1AkM4yAqTM4KlATZJnT9FvKz6N7XS/aRm+lPrX4J6QIgRtKTS39+0Tv7wpHkvN8xmpJ9p8YvdlEdAKYSZQHnoK4=',
  'MIIBiDCCAS2gAwIBAgIUQbGPMNpyrBCsIJdDrN9hQrfZJpQwCgYIKoZIzj0EAwIwGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYjAgFw0yNjEyMDUwNzUzMjdaGA8yMTI2MTExMTA3NTMyN1owGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDVk9xBfDmZvMof0rGIJ0dY04QXhUO1qJGj8llQAVXJB7VKVe/AoRFeJoaBEaFtQuQ2wsVKGkILBl9/Uh0OQp1mjUzBRMB0GA1UdDgQWBBQvZpCvUXa+7zbprzRd58hkLj6nODAfBgNVHSMEGDAWgBQvZpCvUXa+7zbprzRd58hkLj6nODAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDfqnUdqUYjlRVBroeB0AvLuTbazZUnP8U3MxNrd4ZuggIhALVfdDzVgyEI1rQBcD66bpUp3zWU+/jJN7fOVP6ncS04',
]
const WITHOUT_AKI =
  'MIIBXzCCAQagAwIBAgIURKGG8hFAV9XT6X0q3bh7+1zeEWQwCgYIKoZIzj0EAwIwGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYzAgFw0yNjEyMDUwNzUzMzFaGA8yMTI2MTExMTA3NTMzMVowGDEWMBQGA1UEAwwNVGVzdCBJc3N1ZXIgYzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABOL9aIo42cXdl0qZry+E1dJ2chwsvGWqI63hnYU+lPAdHHQMZ4x9cIAzIz9LAHjN/3aT3Mf1oIBJGjzhx9bLW3qjLDAqMAkGA1UdEwQCMAAwHQYDVR0OBBYEFNlLfm2G4iqRktzb4/w07/kbdQsiMAoGCCqGSM49BAMCA0cAMEQCIH0ex1DNls5IHOEwMdTlEPcPA3P8ayhAPoavZ5gBztdOAiACAwPKPGsz+mWuUhSq81ul+/WQNQmX+f8+WUIEE5zlyg=='

type GetAuthority = (credential: unknown) => unknown
const service = Object.create(DcqlService.prototype) as DcqlService
const credos = (DcqlService.prototype as unknown as { getAuthorityForCredential: GetAuthority })
  .getAuthorityForCredential
const ours = (credential: unknown) =>
  (service as unknown as { getAuthorityForCredential: GetAuthority }).getAuthorityForCredential(credential)
const sdJwtVc = (x5c: string[]) => ({ claimFormat: ClaimFormat.SdJwtDc, header: { alg: 'ES256', x5c } })

describe('rememberDcqlAuthorities', () => {
  const expected = new Map<string[], unknown>()
  const chains = [[WITH_AKI[0]], [WITH_AKI[1]], WITH_AKI, [WITHOUT_AKI]]

  beforeAll(() => {
    for (const chain of chains) expected.set(chain, credos.call(service, sdJwtVc(chain)))
    rememberDcqlAuthorities()
  })

  it("answers as Credo's method, parsing each chain's certificates once", () => {
    const parse = jest.spyOn(X509Certificate, 'fromEncodedCertificate')
    try {
      for (let round = 0; round < 3; round++)
        for (const chain of chains) expect(ours(sdJwtVc([...chain]))).toEqual(expected.get(chain))
      // One parse per certificate of each chain, in the first round only.
      expect(parse).toHaveBeenCalledTimes(5)
    } finally {
      parse.mockRestore()
    }
    expect(expected.get(chains[0])).toEqual({ type: 'aki', values: [expect.any(String)] })
    expect(expected.get(chains[2])).toEqual({ type: 'aki', values: expect.arrayContaining([expect.any(String)]) })
    expect(expected.get(chains[3])).toBeUndefined()
  })

  it('gives each caller its own copy', () => {
    const first = ours(sdJwtVc([WITH_AKI[0]])) as { values: string[] }
    first.values.push('changed by a caller')
    expect(ours(sdJwtVc([WITH_AKI[0]]))).toEqual(expected.get(chains[0]))
  })

  it('leaves other credentials, and chains Credo cannot read, to Credo every time', () => {
    expect(ours({ claimFormat: ClaimFormat.LdpVc })).toBeUndefined()
    expect(ours(sdJwtVc([]))).toEqual(credos.call(service, sdJwtVc([])))
    const parse = jest.spyOn(X509Certificate, 'fromEncodedCertificate')
    try {
      for (let attempt = 0; attempt < 2; attempt++) expect(() => ours(sdJwtVc(['bm90IGEgY2VydGlmaWNhdGU=']))).toThrow()
      expect(parse).toHaveBeenCalledTimes(2)
    } finally {
      parse.mockRestore()
    }
  })
})
