import { randomBytes } from 'node:crypto'
import { ledgerSigningBytes, type LedgerTransactionType } from '@idplane/common/agent-contract/ledger'
import { verifyChain, type ChainSource } from './ledger-chain'
import { Ed25519Signer, GENESIS_PREV_HASH, transactionHash } from './ledger-crypto'
import type { StoredTransaction } from './ledger.repository'

const NAMESPACE = 'idplane'

/** A chain built in memory as the repository would append it. */
class MemoryChain implements ChainSource {
  public readonly rows: StoredTransaction[] = []

  public add(
    signer: Ed25519Signer,
    type: LedgerTransactionType,
    payload: Record<string, unknown>,
    lastSeqNo: number | null,
    objectId: string | null = null,
  ): StoredTransaction {
    const bytes = ledgerSigningBytes({
      namespace: NAMESPACE,
      type,
      authorDid: signer.did,
      payload,
      lastSeqNo: lastSeqNo ?? undefined,
    })
    const previous = this.rows.at(-1)
    const fields = {
      seqNo: this.rows.length + 1,
      type,
      authorDid: signer.did,
      objectId,
      payload,
      signature: signer.sign(bytes),
      lastSeqNo,
      prevHash: previous?.hash ?? GENESIS_PREV_HASH,
      txnTime: new Date(Date.UTC(2026, 10, 28, 0, 0, this.rows.length)).toISOString(),
      requestedByOrgId: null,
    }
    const row = { ...fields, hash: transactionHash(fields) }
    this.rows.push(row)
    return row
  }

  public nym(trustee: Ed25519Signer, of: Ed25519Signer, lastSeqNo: number | null): StoredTransaction {
    return this.add(trustee, 'NYM', { dest: of.did, verkey: of.verkey }, lastSeqNo, of.did)
  }

  public async list(from: number, limit: number) {
    return this.rows.filter((row) => row.seqNo >= from).slice(0, limit)
  }

  public async findBySeqNo(seqNo: number) {
    return this.rows.find((row) => row.seqNo === seqNo)
  }

  public async nymsUpTo(to: number) {
    return this.rows.filter((row) => row.type === 'NYM' && row.seqNo <= to)
  }

  public async lastSeqNosBefore(seqNo: number) {
    const last = new Map<string, number>()
    for (const row of this.rows.filter((candidate) => candidate.seqNo < seqNo)) {
      last.set(row.authorDid, row.seqNo)
      if (row.type === 'NYM' && row.objectId) last.set(row.objectId, row.seqNo)
    }
    return last
  }
}

const attrib = (did: string, endpoint: string) => ({ dest: did, raw: { endpoint: { endpoint } } })

describe('verifyChain', () => {
  const trustee = new Ed25519Signer(randomBytes(32))
  const author = new Ed25519Signer(randomBytes(32))

  function boundChain(): MemoryChain {
    const chain = new MemoryChain()
    chain.nym(trustee, trustee, 0)
    chain.nym(trustee, author, 1)
    chain.add(author, 'ATTRIB', attrib(author.did, 'https://a.example'), 2)
    chain.add(author, 'ATTRIB', attrib(author.did, 'https://b.example'), 3)
    return chain
  }

  it('accepts a chain whose every write is bound to its author previous transaction, from any start', async () => {
    const chain = boundChain()
    expect(await verifyChain(chain, NAMESPACE, { from: 1 })).toEqual({ isValid: true, checked: 4 })
    expect(await verifyChain(chain, NAMESPACE, { from: 3 })).toEqual({ isValid: true, checked: 2 })
    expect(await verifyChain(chain, NAMESPACE, { from: 4, to: 4 })).toEqual({ isValid: true, checked: 1 })
  })

  it('names a replayed request appended again: validly signed, bound to a state that had passed', async () => {
    const chain = boundChain()
    // The first ATTRIB (bound to 2) appended again at 5: its signature holds, its binding does not.
    chain.add(author, 'ATTRIB', attrib(author.did, 'https://a.example'), 2)
    const check = await verifyChain(chain, NAMESPACE, { from: 1 })
    expect(check).toMatchObject({ isValid: false, checked: 4, firstInvalid: { seqNo: 5 } })
    expect(check.firstInvalid?.reason).toMatch(/lastSeqNo 2 is not the author's previous transaction \(4\)/)
    expect((await verifyChain(chain, NAMESPACE, { from: 5 })).firstInvalid?.seqNo).toBe(5)
  })

  it('takes transactions written before bindings as they were signed', async () => {
    const chain = new MemoryChain()
    chain.nym(trustee, trustee, null)
    chain.nym(trustee, author, null)
    chain.add(author, 'ATTRIB', attrib(author.did, 'https://a.example'), null)
    chain.add(author, 'ATTRIB', attrib(author.did, 'https://b.example'), 3)
    expect(await verifyChain(chain, NAMESPACE, { from: 1 })).toEqual({ isValid: true, checked: 4 })
  })

  it('names a binding changed after signing (the signature covers it)', async () => {
    const chain = boundChain()
    const row = chain.rows[3] as StoredTransaction
    const changed = { ...row, lastSeqNo: 1 }
    chain.rows[3] = { ...changed, hash: transactionHash(changed) }
    expect((await verifyChain(chain, NAMESPACE, { from: 1 })).firstInvalid).toEqual({
      seqNo: 4,
      reason: 'signature does not verify with the author verkey',
    })
  })
})
