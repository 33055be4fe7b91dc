import { BoundedMap } from '@idplane/common'
import { DidCommMessageRecord } from '@credo-ts/didcomm'

import { cloneInstance } from './clone-instance'

/**
 * Messages kept per message class; a message larger than the text limit is parsed each time, as before. A message is
 * read back within its exchange, so the last 50 of a class cover 32 exchanges in flight; at most 50 x 16 KiB of text
 * and its instance per class (a few megabytes over the dozen classes an exchange uses, well under that in practice).
 */
const KEPT_PER_CLASS = 50
const MAX_KEPT_TEXT = 16 * 1024

type MessageClass = Parameters<DidCommMessageRecord['getMessageInstance']>[0]
type MessageInstance = ReturnType<DidCommMessageRecord['getMessageInstance']>

const kept = new WeakMap<MessageClass, BoundedMap<string, MessageInstance>>()
let isInstalled = false

/**
 * Credo reads a stored DIDComm message back (the offer when the request comes, the request when the credential is
 * issued, and so on) through `DidCommMessageRecord.getMessageInstance`, which parses and validates its JSON into the
 * message class each time: class-transformer and class-validator over every decorator, 2.9 % of each agent's busy
 * time in `bench:agent`. The instance depends only on the class and the JSON, so one validated instance is kept per
 * class and JSON text, and each caller gets a copy of it (cloneInstance, as the record mirror hands out records). A
 * message that fails to parse or to validate is not kept and throws as before. Belongs in Credo.
 */
export function rememberStoredMessages(): void {
  if (isInstalled) return
  isInstalled = true
  const parse = DidCommMessageRecord.prototype.getMessageInstance
  DidCommMessageRecord.prototype.getMessageInstance = function <T extends MessageClass>(
    this: DidCommMessageRecord,
    messageClass: T,
  ): InstanceType<T> {
    const text = JSON.stringify(this.message)
    if (text.length > MAX_KEPT_TEXT) return parse.call(this, messageClass) as InstanceType<T>
    let ofClass = kept.get(messageClass)
    if (!ofClass) {
      ofClass = new BoundedMap(KEPT_PER_CLASS)
      kept.set(messageClass, ofClass)
    }
    return cloneInstance(ofClass.remembered(text, () => parse.call(this, messageClass))) as InstanceType<T>
  }
}
