import { createPrivateKey, X509Certificate } from 'node:crypto'

import { Kms } from '@credo-ts/core'
import { NodeKeyManagementService } from '@credo-ts/node'
import { ConflictError, InvalidInputError, InvalidStateError, NotFoundError } from '@idplane/common'

import { IdplaneAdaptersModule } from '../../agent/src/adapters/idplane-adapters.module'
import { IdplaneKeyManagementService } from '../../agent/src/adapters/kms/idplane-key-management.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

function pemOf(base64Der: string): string {
  return `-----BEGIN CERTIFICATE-----\n${base64Der.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`
}

describe('x509 certificates and trust anchors of an organization (agent KMS and storage)', () => {
  let organization: OpenId4VcTestAgent
  let other: OpenId4VcTestAgent

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    other = await startOpenId4VcAgent()
  })

  afterAll(async () => {
    await other?.close()
    await organization?.close()
  })

  const service = (agent: OpenId4VcTestAgent) => agent.agent.context.resolve(X509CertificatesService)

  /** A verification certificate made while `kms` draws `bytes` as its random bytes (the serial's among them). */
  async function createdWithRandomBytes(
    kms: Pick<Kms.KeyManagementService, 'randomBytes'>,
    bytes: (length: number) => Uint8Array,
    commonName: string,
  ) {
    const random = jest.spyOn(kms, 'randomBytes').mockImplementation((_context, { length }) => bytes(length))
    try {
      const created = await service(organization).create(organization.agent.context, {
        keyType: 'P-256',
        purpose: 'verification',
        subject: { commonName },
        sanDnsNames: ['localhost'],
      })
      return { created, calls: random.mock.calls.length }
    } finally {
      random.mockRestore()
    }
  }

  it('creates a self-signed Ed25519 certificate whose key signs in the KMS, one active per purpose', async () => {
    const org = organization.agent.context
    const first = await service(organization).create(org, {
      keyType: 'Ed25519',
      purpose: 'verification',
      subject: { commonName: 'Acme, Inc. verifier', organization: 'Acme', country: 'AT' },
      sanDnsNames: ['verifier.acme.example'],
      sanUriNames: ['https://verifier.acme.example'],
    })
    const parsed = new X509Certificate(Buffer.from(first.certificate, 'base64'))
    // OpenSSL writes the name RFC 4514-escaped: the comma is part of the common name.
    expect(parsed.subject.split('\n')).toEqual(['C=AT', 'O=Acme', 'CN=Acme\\, Inc. verifier'])
    expect(parsed.subjectAltName).toContain('DNS:verifier.acme.example')
    expect(parsed.publicKey.asymmetricKeyType).toBe('ed25519')
    expect(parsed.verify(parsed.publicKey)).toBe(true)
    expect(first).toMatchObject({ keyType: 'Ed25519', status: 'active', chain: [], isImported: false })
    expect(first.subject).toBe('C=AT, O=Acme, CN=Acme\\, Inc. verifier')
    const signed = await organization.agent.kms.sign({
      keyId: first.keyId,
      algorithm: 'EdDSA',
      data: Buffer.from('hello'),
    })
    expect(signed.signature).toHaveLength(64)

    const second = await service(organization).create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier 2' },
      sanDnsNames: ['verifier.acme.example'],
    })
    expect(second.status).toBe('inactive')
    await service(organization).activate(org, second.id)
    expect((await service(organization).get(org, first.id)).status).toBe('inactive')
    expect((await service(organization).activeFor(org, 'verification')).id).toBe(second.id)
    await service(organization).deactivate(org, second.id)
    await expect(service(organization).activeFor(org, 'verification')).rejects.toThrow(InvalidStateError)
    await expect(service(organization).get(org, 'no-such-id')).rejects.toThrow(NotFoundError)
  })

  it('refuses bad input with the field named', async () => {
    const org = organization.agent.context
    const create = service(organization).create.bind(service(organization), org)
    const fieldsOf = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(InvalidInputError)
      return (error as InvalidInputError).fields.map((field) => field.field)
    }
    expect(await fieldsOf(create({ keyType: 'P-256', purpose: 'verification', subject: { commonName: 'v' } }))).toEqual(
      ['sanDnsNames'],
    )
    expect(
      await fieldsOf(
        create({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: '', country: 'Austria' } }),
      ),
    ).toEqual(['subject.commonName', 'subject.country'])
    expect(
      await fieldsOf(create({ keyType: 'RSA' as never, purpose: 'issuance', subject: { commonName: 'x' } })),
    ).toEqual(['keyType'])
    expect(
      await fieldsOf(
        create({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'x' }, sanDnsNames: ['not a host'] }),
      ),
    ).toEqual(['sanDnsNames'])
    const now = new Date()
    expect(
      await fieldsOf(
        create({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'x' }, notBefore: now, notAfter: now }),
      ),
    ).toEqual(['notAfter'])
  })

  it('creates certificates under an active authority certificate, within its validity', async () => {
    const org = organization.agent.context
    const authority = await service(organization).create(org, {
      keyType: 'P-256',
      purpose: 'authority',
      subject: { commonName: 'Acme IACA', country: 'AT' },
      notAfter: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    })
    const signer = await service(organization).create(org, {
      keyType: 'Ed25519',
      purpose: 'issuance',
      subject: { commonName: 'Acme document signer', country: 'AT' },
      issuerCertificateId: authority.id,
    })
    const leaf = new X509Certificate(Buffer.from(signer.certificate, 'base64'))
    const root = new X509Certificate(Buffer.from(authority.certificate, 'base64'))
    expect(root.ca).toBe(true)
    expect(leaf.ca).toBe(false)
    expect(leaf.checkIssued(root)).toBe(true)
    expect(leaf.verify(root.publicKey)).toBe(true)
    expect(signer).toMatchObject({
      chain: [authority.certificate],
      issuerCertificateId: authority.id,
      notAfter: authority.notAfter,
    })
    expect(
      service(organization)
        .signingChain(signer)
        .map((certificate) => certificate.toString('base64')),
    ).toEqual([signer.certificate, authority.certificate])

    await expect(
      service(organization).create(org, {
        keyType: 'P-256',
        purpose: 'issuance',
        subject: { commonName: 'too long' },
        issuerCertificateId: authority.id,
        notAfter: new Date(Date.now() + 60 * 24 * 3600 * 1000),
      }),
    ).rejects.toThrow(InvalidInputError)
    await expect(
      service(organization).create(org, {
        keyType: 'P-256',
        purpose: 'issuance',
        subject: { commonName: 'x' },
        issuerCertificateId: signer.id,
      }),
    ).rejects.toThrow(InvalidStateError)
    await service(organization).deactivate(org, authority.id)
    await expect(
      service(organization).create(org, {
        keyType: 'P-256',
        purpose: 'issuance',
        subject: { commonName: 'x' },
        issuerCertificateId: authority.id,
      }),
    ).rejects.toThrow(InvalidStateError)
    await service(organization).activate(org, authority.id)
  })

  it('imports a certificate with its private key (PKCS#8 PEM or JWK) and refuses a key of another certificate', async () => {
    const org = organization.agent.context
    const source = await service(organization).create(org, {
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Exported signer' },
    })
    const adapters = organization.agent.dependencyManager.registeredModules.adapters as IdplaneAdaptersModule
    const privateJwk = (await adapters.keys.get(org, source.keyId)) as {
      kty: 'EC'
      crv: 'P-256'
      x: string
      y: string
      d: string
    }
    const pkcs8 = createPrivateKey({ key: privateJwk as never, format: 'jwk' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString()

    const target = other.agent.context
    const fromPem = await service(other).import(target, {
      purpose: 'issuance',
      certificate: pemOf(source.certificate),
      privateKey: pkcs8,
    })
    expect(fromPem).toMatchObject({
      isImported: true,
      keyType: 'P-256',
      certificate: source.certificate,
      status: 'active',
    })
    const signed = await other.agent.kms.sign({ keyId: fromPem.keyId, algorithm: 'ES256', data: Buffer.from('hello') })
    const verified = await other.agent.kms.verify({
      key: {
        publicJwk: Kms.PublicJwk.fromPublicJwk({ kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y }).toJson(),
      },
      algorithm: 'ES256',
      data: Buffer.from('hello'),
      signature: signed.signature,
    })
    expect(verified.verified).toBe(true)
    const fromJwk = await service(other).import(target, {
      purpose: 'verification',
      certificate: source.certificate,
      privateKey: privateJwk as unknown as Record<string, unknown>,
    })
    expect(fromJwk.keyType).toBe('P-256')

    const stranger = await service(organization).create(org, {
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Stranger' },
    })
    await expect(
      service(other).import(target, { purpose: 'issuance', certificate: stranger.certificate, privateKey: pkcs8 }),
    ).rejects.toThrow('The private key does not belong to the certificate')
    await expect(
      service(other).import(target, { purpose: 'issuance', certificate: 'not a certificate', privateKey: pkcs8 }),
    ).rejects.toThrow(InvalidInputError)
    await expect(
      service(other).import(target, { purpose: 'issuance', certificate: source.certificate, privateKey: 'nope' }),
    ).rejects.toThrow(InvalidInputError)
  })

  it('keeps trust anchors, one per certificate, and trusts them with its own roots', async () => {
    const target = other.agent.context
    const foreign = await service(organization).create(organization.agent.context, {
      keyType: 'P-256',
      purpose: 'authority',
      subject: { commonName: 'Foreign IACA' },
    })
    const anchor = await service(other).addTrustAnchor(target, {
      certificate: pemOf(foreign.certificate),
      label: 'Foreign',
    })
    expect(anchor).toMatchObject({ certificate: foreign.certificate, label: 'Foreign', subject: 'CN=Foreign IACA' })
    await expect(service(other).addTrustAnchor(target, { certificate: foreign.certificate })).rejects.toThrow(
      ConflictError,
    )
    await expect(
      service(other).addTrustAnchor(target, { certificate: pemOf(foreign.certificate) + pemOf(foreign.certificate) }),
    ).rejects.toThrow(InvalidInputError)
    const trusted = await service(other).trustedCertificates(target)
    expect(trusted).toContain(foreign.certificate)
    const own = await service(other).list(target)
    for (const record of own) expect(trusted).toContain(record.chain.at(-1) ?? record.certificate)
    await service(other).removeTrustAnchor(target, anchor.id)
    expect(await service(other).trustedCertificates(target)).not.toContain(foreign.certificate)
    await expect(service(other).removeTrustAnchor(target, anchor.id)).rejects.toThrow(NotFoundError)
  })
  it('gives a random serial with a leading zero byte its minimal DER form, which OpenSSL reads', async () => {
    // One serial in 512 starts with 0x00 then a byte below 0x80. Node's random bytes are a Buffer, whose slice() is a
    // view: the certificate library kept the zero and OpenSSL refused the certificate ("no start line").
    const { created, calls } = await createdWithRandomBytes(
      NodeKeyManagementService.prototype,
      (length) => Buffer.concat([Buffer.from([0x00, 0x16]), Buffer.alloc(length - 2, 0x5a)]),
      'Acme verifier, zero serial',
    )
    expect(calls).toBeGreaterThan(0)
    const parsed = new X509Certificate(Buffer.from(created.certificate, 'base64'))
    expect(parsed.serialNumber).toBe('16' + '5A'.repeat(14))
    const chain = service(organization).signingChain(created)
    expect(chain.map((certificate) => certificate.toString('base64'))).toEqual([created.certificate])
  })

  it('refuses to activate or import a certificate OpenSSL cannot read (a serial made before the fix)', async () => {
    // Our KMS as it was: Node's Buffer, whose slice() is a view, so the certificate keeps the serial's leading zero.
    const org = organization.agent.context
    const { created: unreadable } = await createdWithRandomBytes(
      IdplaneKeyManagementService.prototype,
      (length) => {
        // A Buffer over its own memory, as Node's randomBytes gives (Buffer.concat's may share a pool).
        const own = new Uint8Array(length).fill(0x5a)
        own.set([0x00, 0x16])
        return Buffer.from(own.buffer)
      },
      'Acme verifier, made before the fix',
    )
    expect(() => new X509Certificate(Buffer.from(unreadable.certificate, 'base64'))).toThrow()

    await service(organization).deactivate(org, unreadable.id)
    await expect(service(organization).activate(org, unreadable.id)).rejects.toThrow(
      /cannot be read by OpenSSL-based wallets and verifiers .*; create a new one/,
    )
    expect((await service(organization).get(org, unreadable.id)).status).toBe('inactive')

    const adapters = organization.agent.dependencyManager.registeredModules.adapters as IdplaneAdaptersModule
    const privateJwk = (await adapters.keys.get(org, unreadable.keyId)) as unknown as Record<string, unknown>
    await expect(
      service(other).import(other.agent.context, {
        purpose: 'verification',
        certificate: unreadable.certificate,
        privateKey: privateJwk,
      }),
    ).rejects.toThrow(/not strict DER, which OpenSSL-based wallets refuse/)
  })
})
