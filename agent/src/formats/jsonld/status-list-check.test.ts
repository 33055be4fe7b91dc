import type { AgentContext } from '@credo-ts/core'
import {
  emptyBitstring,
  encodeBitstring,
  MIN_STATUS_LIST_SIZE,
  setBit,
  statusListCredential,
  statusListEntry,
  type StatusPurpose,
} from '@idplane/common/bitstring-status-list'

import { boundedGet, HttpGetError } from '../../transport/http-get'
import { OutboundTargetGuard } from '../../transport/outbound-target-guard'
import { checkCredentialStatus, type ListVerifier } from './status-list-check'

jest.mock('../../transport/http-get', () => ({
  ...jest.requireActual('../../transport/http-get'),
  boundedGet: jest.fn(),
}))

const fetched = boundedGet as jest.MockedFunction<typeof boundedGet>

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const ISSUER = 'did:key:z6MkIssuer'
const URL_OF = (purpose: StatusPurpose) => `https://issuer.example/v1/status-lists/${purpose}`
/** Private targets allowed: only the URL's form is checked (no DNS in a unit test). */
const agentContext = {
  dependencyManager: { isRegistered: () => true, resolve: () => new OutboundTargetGuard(true) },
} as unknown as AgentContext

/** A signed-looking status list credential of `purpose` with `set` bits, as the platform serves it. */
function aList(purpose: StatusPurpose, set: number[] = [], overrides: Record<string, unknown> = {}): Json {
  const bits = emptyBitstring(MIN_STATUS_LIST_SIZE)
  for (const index of set) setBit(bits, index, true)
  return {
    ...statusListCredential({
      url: URL_OF(purpose),
      issuer: ISSUER,
      purpose,
      encodedList: encodeBitstring(bits),
      issuanceDate: '2026-01-01T00:00:00Z',
    }),
    proof: {
      type: 'Ed25519Signature2020',
      created: '2026-01-01T00:00:00Z',
      verificationMethod: `${ISSUER}#key-1`,
      proofPurpose: 'assertionMethod',
      proofValue: 'z3FXQ',
    },
    ...overrides,
  }
}

/** The fetch answers `list` (JSON) for every URL, with `status`. */
function serving(list: unknown, status = 200) {
  fetched.mockResolvedValue({ status, headers: {}, body: Buffer.from(JSON.stringify(list)) })
}

function aCredential(credentialStatus: unknown, issuer: unknown = ISSUER): Record<string, unknown> {
  return { issuer, credentialSubject: { id: 'did:key:z6MkHolder' }, credentialStatus }
}

const listVerifies: ListVerifier = async () => ({ isValid: true })

describe('checkCredentialStatus (Bitstring Status List v1.0 validation)', () => {
  beforeEach(() => fetched.mockReset())

  it('passes an entry whose bit is clear, after fetching its list and verifying its proof', async () => {
    serving(aList('revocation', [7]))
    const verify = jest.fn(listVerifies)
    const result = await checkCredentialStatus(
      agentContext,
      aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 8)),
      verify,
    )
    expect(result).toEqual({ ok: true })
    expect(fetched).toHaveBeenCalledTimes(1)
    expect(fetched.mock.calls[0][0].href).toBe(URL_OF('revocation'))
    expect(verify).toHaveBeenCalledTimes(1)
    expect(verify.mock.calls[0][0].issuerId).toBe(ISSUER)
  })

  it('fails an entry whose bit is set: revoked, or suspended, naming the list and index', async () => {
    serving(aList('revocation', [8]))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 8)),
        listVerifies,
      ),
    ).toEqual({ ok: false, reason: `The credential is revoked: status list ${URL_OF('revocation')}, index 8` })

    serving(aList('suspension', [MIN_STATUS_LIST_SIZE - 1]))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('suspension'), 'suspension', MIN_STATUS_LIST_SIZE - 1)),
        listVerifies,
      ),
    ).toEqual({
      ok: false,
      reason: `The credential is suspended: status list ${URL_OF('suspension')}, index ${MIN_STATUS_LIST_SIZE - 1}`,
    })
  })

  it('checks every entry of a credential: a clear revocation bit and a set suspension bit is a failure', async () => {
    fetched.mockImplementation(async (url) => ({
      status: 200,
      headers: {},
      body: Buffer.from(
        JSON.stringify(url.href.endsWith('revocation') ? aList('revocation') : aList('suspension', [3])),
      ),
    }))
    const result = await checkCredentialStatus(
      agentContext,
      aCredential([
        statusListEntry(URL_OF('revocation'), 'revocation', 3),
        statusListEntry(URL_OF('suspension'), 'suspension', 3),
      ]),
      listVerifies,
    )
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^The credential is suspended/) })
    expect(fetched).toHaveBeenCalledTimes(2)
  })

  it("fails a list issued by someone other than the credential's issuer, before verifying it", async () => {
    serving(aList('revocation', [], { issuer: 'did:key:z6MkSomeoneElse' }))
    const verify = jest.fn(listVerifies)
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1)),
        verify,
      ),
    ).toEqual({ ok: false, reason: `The status list ${URL_OF('revocation')} is not signed by the credential's issuer` })
    expect(verify).not.toHaveBeenCalled()
    // An issuer given as an object is the same issuer.
    serving(aList('revocation', [], { issuer: { id: ISSUER, name: 'Issuer' } }))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1)),
        listVerifies,
      ),
    ).toEqual({ ok: true })
    // A credential without an issuer matches no list (not even one without an issuer).
    serving(aList('revocation', [], { issuer: undefined }))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1), undefined),
        listVerifies,
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/not signed by the credential's issuer/) })
  })

  it("fails a list whose purpose is not the entry's", async () => {
    serving(aList('suspension'))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1)),
        listVerifies,
      ),
    ).toEqual({ ok: false, reason: `The status list ${URL_OF('revocation')} is for suspension, not revocation` })
  })

  it('accepts a list that states several purposes, one of them the entry’s', async () => {
    const list = aList('revocation', [5])
    serving({ ...list, credentialSubject: { ...list.credentialSubject, statusPurpose: ['suspension', 'revocation'] } })
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 5)),
        listVerifies,
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/^The credential is revoked/) })
  })

  it('fails a list whose proof does not verify, or whose verification throws', async () => {
    serving(aList('revocation'))
    const entry = aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1))
    expect(
      await checkCredentialStatus(agentContext, entry, async () => ({
        isValid: false,
        error: new Error('Invalid signature'),
      })),
    ).toEqual({ ok: false, reason: `The status list ${URL_OF('revocation')} does not verify: Invalid signature` })
    expect(await checkCredentialStatus(agentContext, entry, async () => ({ isValid: false }))).toEqual({
      ok: false,
      reason: `The status list ${URL_OF('revocation')} does not verify: invalid proof`,
    })
    expect(
      await checkCredentialStatus(agentContext, entry, async () => {
        throw new Error('no suite for the proof')
      }),
    ).toEqual({ ok: false, reason: `The status list ${URL_OF('revocation')} does not verify: no suite for the proof` })
  })

  it('fails when the list cannot be fetched: unreachable, not 200, not JSON, not a credential', async () => {
    const entry = aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1))
    fetched.mockRejectedValue(new HttpGetError('took longer than 15000 ms'))
    expect(await checkCredentialStatus(agentContext, entry, listVerifies)).toEqual({
      ok: false,
      reason: `The status list ${URL_OF('revocation')} could not be fetched: took longer than 15000 ms`,
    })
    serving({ message: 'gone' }, 404)
    expect(await checkCredentialStatus(agentContext, entry, listVerifies)).toEqual({
      ok: false,
      reason: `The status list ${URL_OF('revocation')} could not be fetched: HTTP 404`,
    })
    fetched.mockResolvedValue({ status: 200, headers: {}, body: Buffer.from('<html>') })
    expect(await checkCredentialStatus(agentContext, entry, listVerifies)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/could not be fetched/),
    })
    serving({ issuer: ISSUER })
    expect(await checkCredentialStatus(agentContext, entry, listVerifies)).toEqual({
      ok: false,
      reason: `The status list ${URL_OF('revocation')} is not a credential`,
    })
  })

  it('fails a status list URL that is not http(s), without fetching it', async () => {
    const result = await checkCredentialStatus(
      agentContext,
      aCredential(statusListEntry('file:///etc/passwd', 'revocation', 1)),
      listVerifies,
    )
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be fetched/) })
    expect(fetched).not.toHaveBeenCalled()
  })

  it('fails a status entry of another type, or one lacking its list, purpose or a whole index', async () => {
    serving(aList('revocation'))
    const notBitstring = { ...statusListEntry(URL_OF('revocation'), 'revocation', 1), type: 'StatusList2021Entry' }
    expect(await checkCredentialStatus(agentContext, aCredential(notBitstring), listVerifies)).toEqual({
      ok: false,
      reason: 'The credential status is not a BitstringStatusListEntry',
    })
    expect(await checkCredentialStatus(agentContext, aCredential('revoked?'), listVerifies)).toMatchObject({
      ok: false,
    })
    const entry = statusListEntry(URL_OF('revocation'), 'revocation', 1)
    for (const broken of [
      { ...entry, statusListCredential: undefined },
      { ...entry, statusPurpose: undefined },
      { ...entry, statusListIndex: undefined },
      { ...entry, statusListIndex: '-1' },
      { ...entry, statusListIndex: '1.5' },
      // Number('') and Number(' ') are 0, Number('0x10') is 16: none is the decimal index the entry must carry.
      { ...entry, statusListIndex: '' },
      { ...entry, statusListIndex: ' ' },
      { ...entry, statusListIndex: '0x10' },
      { ...entry, statusListIndex: '1e3' },
    ])
      expect(await checkCredentialStatus(agentContext, aCredential(broken), listVerifies)).toEqual({
        ok: false,
        reason: 'The credential status entry lacks its list, purpose or index',
      })
    expect(fetched).not.toHaveBeenCalled()
  })

  it('fails an index outside the list, and a list shorter than the specification’s minimum', async () => {
    serving(aList('revocation'))
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', MIN_STATUS_LIST_SIZE)),
        listVerifies,
      ),
    ).toEqual({
      ok: false,
      reason: `Index ${MIN_STATUS_LIST_SIZE} is outside the status list ${URL_OF('revocation')}`,
    })
    const short = aList('revocation')
    serving({
      ...short,
      credentialSubject: { ...short.credentialSubject, encodedList: encodeBitstring(emptyBitstring(1024)) },
    })
    expect(
      await checkCredentialStatus(
        agentContext,
        aCredential(statusListEntry(URL_OF('revocation'), 'revocation', 1)),
        listVerifies,
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/fewer than 131072/) })
  })
})
