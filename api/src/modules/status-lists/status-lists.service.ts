import { randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import type { StatusListSignerJson } from '@idplane/common/agent-contract/openid4vc-api'
import {
  emptyBitstring,
  encodeBitstring,
  setBit,
  statusListCredential,
  statusListEntry,
  type StatusListEntry,
  type StatusPurpose,
} from '@idplane/common/bitstring-status-list'
import {
  emptyTokenStatusList,
  setTokenStatus,
  STATUS_LIST_JWT_MEDIA_TYPE,
  STATUS_LIST_JWT_TYPE,
  statusListTokenPayload,
  TOKEN_STATUS,
  type TokenStatusBits,
} from '@idplane/common/token-status-list'
import { AgentClients } from '../../agent-client/agent-clients'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { StatusListsRepository } from './status-lists.repository'
import { statusListsConfig } from './status-lists.config'
import type { StatusListFormat } from './status-list.entity'

/** Where the API serves status list credentials, without a token. */
export const STATUS_LISTS_PATH = '/v1/status-lists'

/** Tries to reserve an index before giving up (each failure means another process just filled or made a list). */
const RESERVE_TRIES = 5

/**
 * How long a relying party may cache a status list token (its `ttl` claim, draft-ietf-oauth-status-list 5.1), as the
 * route's Cache-Control says for both formats. The token has no `exp`: it is re-signed only when a bit changes, and
 * an expired token would fail every verification in between.
 */
export const STATUS_LIST_TOKEN_TTL_SECONDS = 60

/**
 * A token list's entry width and the status a set entry has (draft-ietf-oauth-status-list 7.1): a revocation list
 * says INVALID (1 bit), a suspension list SUSPENDED (2 bits, as 0x02 needs); reinstatement sets VALID again.
 */
const TOKEN_ENTRY: Record<StatusPurpose, { bits: TokenStatusBits; status: number }> = {
  revocation: { bits: 1, status: TOKEN_STATUS.INVALID },
  suspension: { bits: 2, status: TOKEN_STATUS.SUSPENDED },
}

/**
 * The signer recorded as a token list's `issuer` for lists made before lists named their certificate: whichever
 * issuance certificate is active when the list is signed (such a list fails its credentials' status checks once the
 * certificate is rotated).
 */
export const X5C_SIGNER = 'x5c'

/**
 * A token list of an x5c template belongs to one issuance certificate: its credentials are signed with that
 * certificate, and the list must be too, after a rotation as well (Credo checks the list with the credential's key).
 */
export function x5cSigner(certificateId: string): string {
  return `${X5C_SIGNER}:${certificateId}`
}

/** The agent's signer of a token list by its recorded `issuer`: a DID, a named certificate or (older) the active one. */
export function statusListSignerOf(issuer: string): StatusListSignerJson {
  if (issuer === X5C_SIGNER) return { method: 'x5c' }
  if (issuer.startsWith(`${X5C_SIGNER}:`)) return { method: 'x5c', certificateId: issuer.slice(X5C_SIGNER.length + 1) }
  return { method: 'did', did: issuer }
}

/** A list as served: its body and media type. */
export interface ServedStatusList {
  contentType: string
  body: Buffer
}

/** The index one credential got in one list, as the issuance record keeps it. */
export interface StatusAllocation {
  purpose: StatusPurpose
  statusListId: string
  index: number
}

/**
 * Status lists of the organizations' credentials: W3C Bitstring Status Lists of JSON-LD credentials (issue 25 item 4)
 * and IETF Token Status Lists of SD-JWT VCs (issue 29 item 4). Lists per format, signer and purpose, signed through
 * the organization's agent and served publicly at a stable URL; an index per credential and purpose, drawn at random
 * among the free ones; a new list when one is full; publication (re-signing) after bits change.
 */
@injectable()
export class StatusLists {
  private readonly size: number
  private readonly publicUrl: string

  public constructor(
    private readonly repository: StatusListsRepository,
    private readonly agents: AgentClients,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.size = sectionOf(config, statusListsConfig).size
    this.publicUrl = config.http.publicUrl.replace(/\/+$/, '')
  }

  public urlOf(statusListId: string): string {
    return `${this.publicUrl}${STATUS_LISTS_PATH}/${statusListId}`
  }

  /** The `credentialStatus` entry of an allocation. */
  public entryOf(allocation: StatusAllocation): StatusListEntry {
    return statusListEntry(this.urlOf(allocation.statusListId), allocation.purpose, allocation.index)
  }

  /**
   * An index for one credential of `issuer` in a list of each purpose, never given to another credential (lost, never
   * reused, when the offer then fails). A first or next list is made and signed when none has a free index.
   */
  public async allocate(
    orgId: string,
    issuer: string,
    proofType: string,
    purposes: readonly StatusPurpose[],
    format: StatusListFormat = 'bitstring',
  ): Promise<StatusAllocation[]> {
    const allocations: StatusAllocation[] = []
    for (const purpose of purposes) {
      const { statusListId, index } = await this.allocateCopies(orgId, issuer, proofType, purpose, format, 1)
      allocations.push({ purpose, statusListId, index })
    }
    return allocations
  }

  /**
   * As allocate, for one credential issued in `copies` copies (an OpenID4VC batch: one SD-JWT VC per holder key):
   * an index per copy, all in one list (the offer names one list URL), each drawn at random as allocate's.
   * @returns the first copy's allocation and the further copies' indices
   */
  public async allocateCopies(
    orgId: string,
    issuer: string,
    proofType: string,
    purpose: StatusPurpose,
    format: StatusListFormat,
    copies: number,
  ): Promise<StatusAllocation & { copyIndices: number[] }> {
    if (copies < 1 || copies > this.size) throw new Error(`Cannot allocate ${copies} copies in lists of ${this.size}`)
    const slot = await this.reserve(orgId, { format, issuer, proofType, purpose }, copies)
    const indices: number[] = []
    for (let copy = 0; copy < copies; copy++) indices.push(await this.repository.takeIndex(slot))
    const [index, ...copyIndices] = indices
    return { purpose, statusListId: slot.statusListId, index, copyIndices }
  }

  /** The signed list as served (public). @throws NotFoundError for an unknown list */
  public async served(statusListId: string): Promise<ServedStatusList> {
    const list = /^[0-9a-f-]{36}$/i.test(statusListId) ? await this.repository.findById(statusListId) : null
    if (!list) throw new NotFoundError('Status list not found')
    if (list.format === 'token') return { contentType: STATUS_LIST_JWT_MEDIA_TYPE, body: Buffer.from(list.token ?? '') }
    return { contentType: 'application/json', body: Buffer.from(JSON.stringify(list.credential)) }
  }

  /**
   * Sets one credential's bit; the served list changes when it is next published.
   * @returns false when the bit had that value already
   */
  public setBit(allocation: StatusAllocation, value: boolean): Promise<boolean> {
    return this.repository.setBit(allocation.statusListId, allocation.index, value)
  }

  /** Signs the list as its entries are now and serves that (a newer publication of it is never replaced). */
  public async publish(orgId: string, statusListId: string): Promise<void> {
    const list = await this.repository.findById(statusListId)
    if (!list || list.organization.id !== orgId) throw new NotFoundError('Status list not found')
    const revision = list.revision
    if (revision <= list.publishedRevision) return
    const setIndices = await this.repository.setIndices(statusListId)
    const signed = await this.signed(orgId, { ...list, format: list.format }, setIndices)
    await this.repository.storePublished(statusListId, revision, signed)
  }

  private async reserve(orgId: string, wanted: Omit<ListDescription, 'id'>, count = 1) {
    const { format, issuer, purpose } = wanted
    for (let attempt = 0; attempt < RESERVE_TRIES; attempt++) {
      const slot = await this.repository.reserve(orgId, format, issuer, purpose, count)
      if (slot) return slot
      const newest = await this.repository.newest(orgId, format, issuer, purpose)
      const id = randomUUID()
      const signed = await this.signed(orgId, { ...wanted, id, size: this.size }, [])
      // A concurrent offer may add the same sequence first: then its list is the one to reserve in.
      await this.repository.add(orgId, {
        ...wanted,
        id,
        sequence: (newest?.sequence ?? 0) + 1,
        size: this.size,
        ...signed,
      })
    }
    throw new Error(`No ${format} status list of ${issuer} (${purpose}) had a free index after ${RESERVE_TRIES} tries`)
  }

  /** The list signed with the given entries set, as its format publishes it. */
  private async signed(
    orgId: string,
    list: ListDescription & { size: number },
    setIndices: readonly number[],
  ): Promise<{ credential: Record<string, unknown> } | { token: string }> {
    if (list.format === 'token') return { token: await this.signToken(orgId, list, setIndices) }
    const bits = emptyBitstring(list.size)
    for (const index of setIndices) setBit(bits, index, true)
    const credential = await this.sign(orgId, { ...list, encodedList: encodeBitstring(bits) })
    return { credential }
  }

  /**
   * The status list token, signed by the agent with the key of the SD-JWT VCs pointing into it (a DID, or the active
   * issuance certificate): Credo's verifier checks the token with the credential's key.
   */
  private async signToken(orgId: string, list: ListDescription & { size: number }, setIndices: readonly number[]) {
    const { bits, status } = TOKEN_ENTRY[list.purpose]
    const bytes = emptyTokenStatusList(list.size, bits)
    for (const index of setIndices) setTokenStatus(bytes, bits, index, status)
    const agent = await this.agents.openId4VcForOrg(orgId)
    const { jwt } = await agent.signStatusListToken({
      signer: statusListSignerOf(list.issuer),
      payload: statusListTokenPayload({
        uri: this.urlOf(list.id),
        bytes,
        bits,
        issuedAt: new Date(),
        ttlSeconds: STATUS_LIST_TOKEN_TTL_SECONDS,
      }),
    })
    return jwt
  }

  private async sign(
    orgId: string,
    list: Omit<ListDescription, 'format'> & { encodedList: string },
  ): Promise<Record<string, unknown>> {
    const agent = await this.agents.forOrg(orgId)
    return agent.signCredential({
      proofType: list.proofType,
      credential: statusListCredential({
        url: this.urlOf(list.id),
        issuer: list.issuer,
        purpose: list.purpose,
        encodedList: list.encodedList,
        issuanceDate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      }),
    })
  }
}

/** What makes a list: its id (in its URL), format, signer, signature suite and purpose. */
interface ListDescription {
  id: string
  format: StatusListFormat
  issuer: string
  proofType: string
  purpose: StatusPurpose
}

/** The `proofType` recorded for token lists (they are JWTs, not Data Integrity credentials). */
export const TOKEN_PROOF_TYPE = STATUS_LIST_JWT_TYPE
