import { isDeepStrictEqual } from 'node:util'

import { SdJwtVcRecord } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

import { rememberGetter } from './getter-memo'

/**
 * Decoded SD-JWT VCs kept, the last ones read: a holder answering a DCQL request reads every credential it holds of
 * the requested types, so this covers a wallet of 200 of them. A credential over the text limit is decoded each time,
 * as before (an SD-JWT VC is one or two kilobytes: a megabyte or two in all).
 */
const KEPT = 200
const MAX_KEPT_TEXT = 32 * 1024

type Tags = ReturnType<SdJwtVcRecord['getTags']>

/** The tags Credo derives from the credential's text (its JWT's header and payload), kept per text. */
interface TextTags {
  vct: unknown
  sdAlg: unknown
  alg: unknown
}

let isInstalled = false

/**
 * Credo decodes an SD-JWT VC record's compact text each time its `firstCredential` or `getTags()` is read: every
 * disclosure base64-decoded, parsed and hashed (SHA-256 in JavaScript), the claims rebuilt. Its DCQL query reads both
 * for every held credential of the requested types at every request (`getTags` twice), which was 12-13 % of an
 * OpenID4VC holder's CPU in `bench:platform` and grew with the credentials it held. Both depend only on the record's
 * text and a few of its fields, so:
 * - `firstCredential` is kept per (text, type metadata, key id), and each read gets a copy (cloneInstance: the holder
 *   binding's key is a class instance);
 * - `getTags()` keeps the three tags Credo derives from the text (`vct`, `sdAlg`, `alg`) and takes the rest from the
 *   record as Credo does. The first read of each text also asks Credo and compares: if Credo's answer differs from the
 *   one put together here (a Credo upgrade that changed its tags), the memo stops for good and Credo answers from then
 *   on.
 * A credential that fails to decode is not kept: Credo's getter throws every time, as before. Belongs in Credo (keep
 * the decoded credential on the record).
 */
export function rememberSdJwtVcDecodes(): void {
  if (isInstalled) return
  const prototype = SdJwtVcRecord.prototype
  const getTags = prototype.getTags as ((this: SdJwtVcRecord) => Tags) | undefined
  // Checked at start, so a Credo upgrade that moves it fails loudly instead of quietly losing this.
  if (typeof getTags !== 'function') throw new Error('SdJwtVcRecord.getTags is gone (Credo changed)')
  rememberGetter(prototype, 'firstCredential', KEPT, (record) => {
    const instance = record.credentialInstances?.[0]
    const text = instance?.compactSdJwtVc
    if (typeof text !== 'string' || text.length > MAX_KEPT_TEXT) return undefined
    // JSON of the three: unambiguous whatever the key id holds; bounded like the text (type metadata may be large).
    const key = JSON.stringify([text, record.typeMetadata ?? null, instance.kmsKeyId ?? null])
    return key.length > 2 * MAX_KEPT_TEXT ? undefined : key
  })
  isInstalled = true

  const textTags = new BoundedMap<string, TextTags>(KEPT)
  let isTrusted = true
  prototype.getTags = function (this: SdJwtVcRecord): Tags {
    const text = this.credentialInstances?.[0]?.compactSdJwtVc
    if (!isTrusted || typeof text !== 'string' || text.length > MAX_KEPT_TEXT) return getTags.call(this)
    const kept = textTags.get(text)
    if (kept) return tagsOf(this, kept)
    const credos = getTags.call(this)
    const fromText: TextTags = { vct: credos.vct, sdAlg: credos.sdAlg, alg: credos.alg }
    if (isDeepStrictEqual(tagsOf(this, fromText), credos)) textTags.set(text, fromText)
    else isTrusted = false
    return credos
  }
}

/** The record's tags as Credo 0.6 puts them together: its own tags, the three from its text, two of its fields. */
function tagsOf(record: SdJwtVcRecord, fromText: TextTags): Tags {
  const own = (record as unknown as { _tags: Record<string, unknown> })._tags
  return {
    ...own,
    vct: fromText.vct,
    extendedVctValues: record.extendedVctValues,
    sdAlg: fromText.sdAlg,
    alg: fromText.alg,
    multiInstanceState: record.multiInstanceState,
  } as Tags
}
