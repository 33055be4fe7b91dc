import { X509ExtendedKeyUsage, X509KeyUsage } from '@credo-ts/core'
import { InvalidInputError } from '@idplane/common'

import { distinguishedName, extensionsFor, splitEncodedCertificates } from './certificate-profile'

describe('distinguishedName', () => {
  it('writes the attributes country first, escaping what RFC 4514 escapes', () => {
    expect(
      distinguishedName({
        commonName: 'Acme, Inc. #1',
        organization: 'Acme "Roads"',
        organizationalUnit: 'IT',
        country: 'AT',
        locality: 'Vienna',
        stateOrProvince: 'W',
      }),
    ).toBe('C=AT, ST=W, L=Vienna, O=Acme \\"Roads\\", OU=IT, CN=Acme\\, Inc. #1')
    expect(distinguishedName({ commonName: '#lead ' })).toBe('CN=\\#lead\\ ')
  })

  it('refuses an empty common name, a country that is not two capitals, control characters', () => {
    const fields = (call: () => unknown) => {
      try {
        call()
      } catch (error) {
        return (error as InvalidInputError).fields.map((field) => field.field)
      }
      return []
    }
    expect(fields(() => distinguishedName({ commonName: ' ', country: 'at' }, 'issuer'))).toEqual([
      'issuer.commonName',
      'issuer.country',
    ])
    expect(fields(() => distinguishedName({ commonName: 'a\nb' }))).toEqual(['subject.commonName'])
  })
})

describe('extensionsFor', () => {
  const names = { sanDnsNames: ['acme.example'], sanUriNames: ['https://acme.example'] }

  it('makes an authority a CA that signs end-entity certificates only', () => {
    expect(extensionsFor('authority', { sanDnsNames: [], sanUriNames: [], hasAuthority: false })).toEqual({
      subjectKeyIdentifier: { include: true },
      basicConstraints: { ca: true, pathLenConstraint: 0, markAsCritical: true },
      keyUsage: { usages: [X509KeyUsage.KeyCertSign, X509KeyUsage.CrlSign], markAsCritical: true },
    })
  })

  it('makes an issuance certificate an mDL document signer, naming its authority', () => {
    expect(extensionsFor('issuance', { ...names, hasAuthority: true })).toEqual({
      subjectKeyIdentifier: { include: true },
      authorityKeyIdentifier: { include: true },
      subjectAlternativeName: {
        name: [
          { type: 'dns', value: 'acme.example' },
          { type: 'url', value: 'https://acme.example' },
        ],
      },
      keyUsage: { usages: [X509KeyUsage.DigitalSignature], markAsCritical: true },
      extendedKeyUsage: { usages: [X509ExtendedKeyUsage.MdlDs], markAsCritical: true },
    })
  })

  it('gives a verification certificate its DNS names (x509_san_dns) and digitalSignature', () => {
    expect(extensionsFor('verification', { ...names, hasAuthority: false })).toMatchObject({
      subjectAlternativeName: {
        name: [
          { type: 'dns', value: 'acme.example' },
          { type: 'url', value: 'https://acme.example' },
        ],
      },
      keyUsage: { usages: [X509KeyUsage.DigitalSignature], markAsCritical: true },
    })
  })
})

describe('splitEncodedCertificates', () => {
  const der = Buffer.from('certificate bytes').toString('base64')

  it('reads PEM blocks in order, one base64 DER, or base64url', () => {
    const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`
    expect(splitEncodedCertificates(`${pem(der)}\n${pem('AAEC')}`)).toEqual([der, 'AAEC'])
    expect(splitEncodedCertificates(`  ${der}\n`)).toEqual([der])
    expect(splitEncodedCertificates(Buffer.from([251, 255]).toString('base64url'))).toEqual([
      Buffer.from([251, 255]).toString('base64'),
    ])
  })

  it('refuses text that is neither', () => {
    expect(() => splitEncodedCertificates('')).toThrow(InvalidInputError)
    expect(() => splitEncodedCertificates('not a certificate!')).toThrow(InvalidInputError)
  })
})
