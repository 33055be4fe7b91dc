import type { SignStatusListTokenRequest } from '@idplane/common/agent-contract/openid4vc-api'
import { decodeTokenStatusList, getTokenStatus, STATUS_LIST_JWT_MEDIA_TYPE } from '@idplane/common/token-status-list'
import type { Config } from '../../infra/config'
import type { StatusList } from './status-list.entity'
import {
  STATUS_LIST_TOKEN_TTL_SECONDS,
  StatusLists,
  TOKEN_PROOF_TYPE,
  X5C_SIGNER,
  x5cSigner,
} from './status-lists.service'

const LIST_ID = '0b7c8a52-5a53-4c55-8f5e-6f2b0e8d9a11'
const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'

/** The service over one stored list and an agent that records what it is asked to sign. */
function listsWith(list: Partial<StatusList>, setIndices: number[]) {
  const stored: StatusList = {
    id: LIST_ID,
    organization: { id: 'org' },
    format: 'token',
    issuer: X5C_SIGNER,
    purpose: 'revocation',
    sequence: 1,
    proofType: TOKEN_PROOF_TYPE,
    size: 64,
    allocated: 1,
    revision: 1,
    publishedRevision: 0,
    credential: null,
    token: 'first.token.signature',
    ...list,
  } as StatusList
  const signed: SignStatusListTokenRequest[] = []
  const published: { revision: number; signed: object }[] = []
  const repository = {
    findById: async (id: string) => (id === LIST_ID ? stored : null),
    setIndices: async () => setIndices,
    storePublished: async (_id: string, revision: number, value: object) =>
      void published.push({ revision, signed: value }),
  }
  const agent = {
    signStatusListToken: async (body: SignStatusListTokenRequest) => {
      signed.push(body)
      return { jwt: `signed.${signed.length}.jwt` }
    },
  }
  const config = { http: { publicUrl: 'https://api.example/' }, sections: { 'status-lists': { size: 64 } } }
  const lists = new StatusLists(
    repository as never,
    { openId4VcForOrg: async () => agent } as never,
    config as unknown as Config,
  )
  return { lists, signed, published }
}

function statusesOf(request: SignStatusListTokenRequest, indices: number[]) {
  const { bits, bytes } = decodeTokenStatusList(request.payload.status_list)
  return { bits, statuses: indices.map((index) => getTokenStatus(bytes, bits, index)) }
}

describe('StatusLists with token lists', () => {
  it('publishes a revocation list as a 1-bit token with INVALID at the set entries, signed by the certificate', async () => {
    const { lists, signed, published } = listsWith({ purpose: 'revocation' }, [3, 40])
    await lists.publish('org', LIST_ID)
    expect(signed).toHaveLength(1)
    expect(signed[0].signer).toEqual({ method: 'x5c' })
    expect(signed[0].payload).toMatchObject({
      sub: `https://api.example/v1/status-lists/${LIST_ID}`,
      ttl: STATUS_LIST_TOKEN_TTL_SECONDS,
      iat: expect.any(Number),
    })
    expect(signed[0].payload).not.toHaveProperty('exp')
    expect(statusesOf(signed[0], [2, 3, 40, 63])).toEqual({ bits: 1, statuses: [0, 1, 1, 0] })
    expect(published).toEqual([{ revision: 1, signed: { token: 'signed.1.jwt' } }])
  })

  it('publishes a suspension list as a 2-bit token with SUSPENDED (2) at the set entries, signed by the DID', async () => {
    const { lists, signed } = listsWith({ purpose: 'suspension', issuer: DID }, [5])
    await lists.publish('org', LIST_ID)
    expect(signed[0].signer).toEqual({ method: 'did', did: DID })
    expect(statusesOf(signed[0], [4, 5, 6])).toEqual({ bits: 2, statuses: [0, 2, 0] })
  })

  it('signs the list of a named issuance certificate with that certificate, whichever is active now', async () => {
    const { lists, signed } = listsWith({ issuer: x5cSigner('cert-1') }, [5])
    await lists.publish('org', LIST_ID)
    expect(signed[0].signer).toEqual({ method: 'x5c', certificateId: 'cert-1' })
  })

  it('signs nothing when the served list is the newest revision', async () => {
    const { lists, signed, published } = listsWith({ revision: 2, publishedRevision: 2 }, [1])
    await lists.publish('org', LIST_ID)
    expect(signed).toEqual([])
    expect(published).toEqual([])
  })

  it('serves a token list as application/statuslist+jwt and a Bitstring list as JSON', async () => {
    expect(await listsWith({}, []).lists.served(LIST_ID)).toEqual({
      contentType: STATUS_LIST_JWT_MEDIA_TYPE,
      body: Buffer.from('first.token.signature'),
    })
    const bitstring = listsWith({ format: 'bitstring', token: null, credential: { id: 'list' } }, [])
    expect(await bitstring.lists.served(LIST_ID)).toEqual({
      contentType: 'application/json',
      body: Buffer.from('{"id":"list"}'),
    })
    await expect(bitstring.lists.served('not-a-list')).rejects.toThrow('Status list not found')
  })
})
