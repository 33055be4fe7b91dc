import { InvalidInputError } from '@idplane/common'
import type { CredentialOfferRequest } from '@idplane/common/agent-contract/openid4vc-api'
import type { CreateOid4vcOfferDto } from './dto/credential-offer.dto'
import { Oid4vcService } from './oid4vc.service'

const CREATED = {
  id: 'offer-1',
  issuerId: 'acme',
  state: 'OfferCreated',
  credentialConfigurationIds: ['t-sd'],
  issuedCredentials: [],
  isPreAuthorized: true,
  hasTxCode: false,
  createdAt: '2026-11-29T05:00:00.000Z',
  offerUri: 'openid-credential-offer://?credential_offer_uri=x',
}

const FORMATS: Record<string, string> = {
  't-sd': 'dc+sd-jwt',
  't-sd-x5c': 'dc+sd-jwt',
  't-mdoc': 'mso_mdoc',
  't-jwt': 'jwt_vc_json',
}

/**
 * The service over an agent with two templates and an issuer of `batchSize`, an allocator handing out index 42 (and
 * 7, 9, ... for further copies) and a record store.
 */
function serviceWith(options: { recordFails?: boolean; batchSize?: number; activeCertificate?: string } = {}) {
  const offers: CredentialOfferRequest[] = []
  const deleted: string[] = []
  const allocated: unknown[][] = []
  const records: unknown[] = []
  const agent = {
    getTemplate: async (_issuerId: string, templateId: string) => ({
      id: templateId,
      format: FORMATS[templateId],
      signer: ['t-sd', 't-jwt'].includes(templateId) ? { method: 'did', did: 'did:key:z6Mk' } : { method: 'x5c' },
    }),
    createOffer: async (_issuerId: string, body: CredentialOfferRequest) => {
      offers.push(body)
      return CREATED
    },
    deleteOffer: async (id: string) => void deleted.push(id),
    getIssuer: async (issuerId: string) => ({ id: issuerId, batchSize: options.batchSize ?? 1 }),
    listX509Certificates: async (query: { purpose?: string; status?: string }) =>
      options.activeCertificate && query.purpose === 'issuance' && query.status === 'active'
        ? [{ id: options.activeCertificate }]
        : [],
  }
  const statusLists = {
    allocateCopies: async (...args: unknown[]) => {
      allocated.push(args)
      const copies = args[5] as number
      const copyIndices = Array.from({ length: copies - 1 }, (_, copy) => 7 + 2 * copy)
      return { purpose: args[3], statusListId: 'list-1', index: 42, copyIndices }
    },
    urlOf: (id: string) => `https://api.example/v1/status-lists/${id}`,
  }
  const repository = {
    addOpenId4VcOffer: async (_orgId: string, row: unknown) => {
      if (options.recordFails) throw new Error('the database went away')
      records.push(row)
    },
  }
  const service = new Oid4vcService(
    { openId4VcForOrg: async () => agent } as never,
    statusLists as never,
    repository as never,
  )
  return { service, offers, deleted, allocated, records }
}

const offer = (credentials: CreateOid4vcOfferDto['credentials']) => ({ credentials }) as CreateOid4vcOfferDto

describe('Oid4vcService.createOffer with a status', () => {
  it('passes an offer without a status through untouched by the status lists', async () => {
    const { service, offers, allocated, records } = serviceWith()
    await service.createOffer('org', 'acme', offer([{ templateId: 't-sd', claims: { a: 1 } }]))
    expect(offers).toEqual([{ credentials: [{ templateId: 't-sd', claims: { a: 1 } }] }])
    expect([allocated, records]).toEqual([[], []])
  })

  it("allocates in the org's token list of the template's signer, hands { idx, uri } to the agent, records the offer", async () => {
    const { service, offers, allocated, records } = serviceWith()
    const created = await service.createOffer(
      'org',
      'acme',
      offer([{ templateId: 't-sd', claims: { a: 1 }, status: { purpose: 'suspension' } }]),
    )
    expect(allocated).toEqual([['org', 'did:key:z6Mk', 'statuslist+jwt', 'suspension', 'token', 1]])
    expect(offers[0].credentials).toEqual([
      { templateId: 't-sd', claims: { a: 1 }, status: { idx: 42, uri: 'https://api.example/v1/status-lists/list-1' } },
    ])
    expect(records).toEqual([
      expect.objectContaining({
        credentialRecordId: 'offer-1',
        state: 'OfferCreated',
        statusListId: 'list-1',
        statusListIndex: 42,
        statusListCopyIndices: null,
        statusPurpose: 'suspension',
      }),
    ])
    expect(created.status).toEqual({
      purpose: 'suspension',
      statusListId: 'list-1',
      idx: 42,
      uri: 'https://api.example/v1/status-lists/list-1',
    })
  })

  it("allocates an entry per copy of the issuer's batch in one list, and hands them to the agent as copyIdx", async () => {
    const { service, offers, allocated, records } = serviceWith({ batchSize: 3 })
    const created = await service.createOffer(
      'org',
      'acme',
      offer([{ templateId: 't-sd', claims: {}, status: { purpose: 'revocation' } }]),
    )
    expect(allocated).toEqual([['org', 'did:key:z6Mk', 'statuslist+jwt', 'revocation', 'token', 3]])
    expect(offers[0].credentials[0].status).toEqual({
      idx: 42,
      copyIdx: [7, 9],
      uri: 'https://api.example/v1/status-lists/list-1',
    })
    expect(records).toEqual([expect.objectContaining({ statusListIndex: 42, statusListCopyIndices: [7, 9] })])
    expect(created.status).toMatchObject({ idx: 42, copyIdx: [7, 9] })
  })

  it("puts an x5c template's entry in the list of the active issuance certificate, and names it to the agent", async () => {
    const { service, offers, allocated } = serviceWith({ activeCertificate: 'cert-2' })
    await service.createOffer(
      'org',
      'acme',
      offer([{ templateId: 't-sd-x5c', claims: {}, status: { purpose: 'revocation' } }]),
    )
    expect(allocated).toEqual([['org', 'x5c:cert-2', 'statuslist+jwt', 'revocation', 'token', 1]])
    expect(offers[0].credentials[0].status).toMatchObject({ idx: 42, certificateId: 'cert-2' })

    const without = serviceWith()
    await expect(
      without.service.createOffer(
        'org',
        'acme',
        offer([{ templateId: 't-sd-x5c', claims: {}, status: { purpose: 'revocation' } }]),
      ),
    ).rejects.toThrow('no active x509 certificate for issuance')
    expect(without.offers).toEqual([])
  })

  it("puts an mso_mdoc template's entry in the active issuance certificate's list; its record is MDOC", async () => {
    const { service, offers, allocated, records } = serviceWith({ activeCertificate: 'cert-2' })
    await service.createOffer(
      'org',
      'acme',
      offer([{ templateId: 't-mdoc', claims: {}, status: { purpose: 'revocation' } }]),
    )
    expect(allocated).toEqual([['org', 'x5c:cert-2', 'statuslist+jwt', 'revocation', 'token', 1]])
    expect(offers[0].credentials[0].status).toMatchObject({ idx: 42, certificateId: 'cert-2' })
    expect(records).toEqual([expect.objectContaining({ credentialType: 'MDOC', statusPurpose: 'revocation' })])
  })

  it('refuses a status on a jwt_vc_json template and on an offer of two credentials, allocating nothing', async () => {
    const { service, offers, allocated } = serviceWith({ activeCertificate: 'cert-2' })
    await expect(
      service.createOffer(
        'org',
        'acme',
        offer([{ templateId: 't-jwt', claims: {}, status: { purpose: 'revocation' } }]),
      ),
    ).rejects.toThrow(/only for dc\+sd-jwt and mso_mdoc credentials, not jwt_vc_json/)
    await expect(
      service.createOffer(
        'org',
        'acme',
        offer([
          { templateId: 't-sd', claims: {}, status: { purpose: 'revocation' } },
          { templateId: 't-mdoc', claims: {} },
        ]),
      ),
    ).rejects.toBeInstanceOf(InvalidInputError)
    expect([offers, allocated]).toEqual([[], []])
  })

  it('withdraws the offer when its record cannot be stored', async () => {
    const { service, deleted } = serviceWith({ recordFails: true })
    await expect(
      service.createOffer(
        'org',
        'acme',
        offer([{ templateId: 't-sd', claims: {}, status: { purpose: 'revocation' } }]),
      ),
    ).rejects.toThrow('the database went away')
    expect(deleted).toEqual(['offer-1'])
  })
})
