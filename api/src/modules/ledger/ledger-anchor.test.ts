import { randomBytes } from 'node:crypto'
import { checkAnchor, ledgerAnchorBytes, type StoredAnchor } from './ledger-anchor'
import { Ed25519Signer } from './ledger-crypto'

const NAMESPACE = 'idplane'
const trustee = new Ed25519Signer(randomBytes(32))
const head = { seqNo: 12, hash: 'a'.repeat(64) }
const anchorOf = (position: { seqNo: number; hash: string }, signer = trustee): StoredAnchor => ({
  ...position,
  signature: signer.sign(ledgerAnchorBytes(NAMESPACE, position)),
  anchoredAt: '2026-11-28T12:00:00.000Z',
})
const check = (input: { head?: typeof head; anchor?: StoredAnchor }) =>
  checkAnchor({ namespace: NAMESPACE, trusteeVerkey: trustee.verkey, head: input.head, anchor: input.anchor })

describe('checkAnchor', () => {
  it('accepts the head the trustee anchored, and an empty ledger without an anchor', () => {
    expect(check({ head, anchor: anchorOf(head) })).toEqual({ isValid: true, head, anchored: head })
    expect(check({})).toEqual({ isValid: true })
  })

  it.each([
    ['a truncated tail', { seqNo: 10, hash: 'b'.repeat(64) }, head, /transactions 11\.\.12 are missing/],
    ['rows added behind the platform', { seqNo: 14, hash: 'b'.repeat(64) }, head, /transactions 13\.\.14 were not/],
    ['a rewritten head', { seqNo: 12, hash: 'b'.repeat(64) }, head, /transaction 12 is not the one/],
  ])('names %s', (_case, actual, anchored, reason) => {
    const result = check({ head: actual, anchor: anchorOf(anchored) })
    expect(result).toMatchObject({ isValid: false, head: actual, anchored, reason: expect.stringMatching(reason) })
  })

  it('refuses an anchor moved to the head without the trustee key, or signed for another namespace', () => {
    const truncated = { seqNo: 10, hash: 'b'.repeat(64) }
    const oldSignature = { ...anchorOf(head), ...truncated }
    expect(check({ head: truncated, anchor: oldSignature }).reason).toMatch(/signature does not verify/)
    const forged = anchorOf(truncated, new Ed25519Signer(randomBytes(32)))
    expect(check({ head: truncated, anchor: forged }).reason).toMatch(/signature does not verify/)
    const elsewhere = { ...head, signature: trustee.sign(ledgerAnchorBytes('other', head)), anchoredAt: '' }
    expect(check({ head, anchor: elsewhere }).isValid).toBe(false)
  })

  it('refuses a ledger with no anchor, and an anchor over an emptied ledger', () => {
    expect(check({ head })).toMatchObject({ isValid: false, reason: 'the ledger has no anchor' })
    expect(check({ anchor: anchorOf(head) }).reason).toMatch(/the ledger is empty but its anchor names seqNo 12/)
  })
})
