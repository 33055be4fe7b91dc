import { W3cCredentialRecord } from '@credo-ts/core'

import { rememberGetter } from './getter-memo'

/**
 * Credentials kept, the last ones read; a credential over the text limit is parsed each time, as before. A holder
 * answering a request reads every credential it holds (Credo's candidate query for a definition without schemas), so
 * this covers a wallet of 200 credentials; at most 200 x 32 KiB of text and its instance (a JSON-LD credential is a few
 * kilobytes: a megabyte or two in practice).
 */
const KEPT = 200
const MAX_KEPT_TEXT = 32 * 1024

let isInstalled = false

/**
 * `W3cCredentialRecord.firstCredential` parses and validates the stored JSON into a credential instance each time it
 * is read (class-transformer and class-validator over the credential, its subject and proof), and a holder answering
 * a presentation request reads it several times per credential it holds: Credo's candidate selection, its check for
 * AnonCreds data-integrity signing, the presentations to create, our candidate prefilter. That was 2.5 % of the
 * holder's busy time in `bench:agent`. The instance depends only on the JSON, so one validated instance is kept per
 * JSON text and each read gets a copy of it (cloneInstance, as the record mirror and the stored-message memo do). A
 * JWT credential (a string) and a credential that fails to parse or validate are not kept: they go to Credo's getter
 * every time, and the latter throws as before. Belongs in Credo (keep the parsed instance on the record).
 */
export function rememberFirstCredentials(): void {
  if (isInstalled) return
  rememberGetter(W3cCredentialRecord.prototype, 'firstCredential', KEPT, (record) => {
    const credential: unknown = record.credentialInstances?.[0]?.credential
    if (typeof credential !== 'object' || credential === null) return undefined
    const text = JSON.stringify(credential)
    return text.length > MAX_KEPT_TEXT ? undefined : text
  })
  isInstalled = true
}
