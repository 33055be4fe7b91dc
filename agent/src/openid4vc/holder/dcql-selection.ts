import {
  ClaimFormat,
  type DcqlCredentialsForRequest,
  type DcqlQueryResult,
  type DcqlValidCredential,
} from '@credo-ts/core'
import { type FieldError, InvalidInputError, InvalidStateError } from '@idplane/common'

/** The holder's choice for one credential query of a DCQL request. */
export interface CredentialSelection {
  /** The credential to present; the first usable one when absent. */
  credentialId?: string
  /** Requested claims not to disclose (paths as in the query); the verifier decides whether it still accepts. */
  withhold?: string[][]
  /** Leave this query unanswered (an optional credential set, or the holder's refusal). */
  omit?: boolean
}

type Entry = DcqlCredentialsForRequest[string][number]

/**
 * The credentials and claims to present: Credo's automatic choice where the request can be satisfied, replaced
 * per query by the holder's selections.
 * @throws {InvalidInputError} for a selection of an unknown query or credential, or withheld claims of a W3C credential
 * @throws {InvalidStateError} when no choice answers the request
 */
export function selectDcqlCredentials(
  result: DcqlQueryResult,
  selections: Record<string, CredentialSelection>,
  automatic: (result: DcqlQueryResult) => DcqlCredentialsForRequest,
): DcqlCredentialsForRequest {
  const problems: FieldError[] = []
  for (const queryId of Object.keys(selections)) {
    if (!result.credential_matches[queryId])
      problems.push({ field: `selections.${queryId}`, message: 'is not a credential query of the request' })
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid selections', problems)

  let chosen: DcqlCredentialsForRequest = {}
  if (result.can_be_satisfied) chosen = automatic(result)
  for (const [queryId, selection] of Object.entries(selections)) {
    if (selection.omit) {
      delete chosen[queryId]
      continue
    }
    const match = result.credential_matches[queryId]
    const candidates: DcqlValidCredential[] = match.success ? match.valid_credentials : []
    const candidate = selection.credentialId
      ? candidates.find((valid) => valid.record.id === selection.credentialId)
      : candidates[0]
    if (!candidate) {
      throw new InvalidInputError('Invalid selections', [
        {
          field: `selections.${queryId}.credentialId`,
          message: 'names no credential of the wallet that answers this query',
        },
      ])
    }
    chosen[queryId] = [withheld(entryFor(candidate), selection.withhold ?? [], queryId)]
  }
  if (Object.keys(chosen).length === 0)
    throw new InvalidStateError('The wallet holds no credentials answering this request')
  return chosen
}

function entryFor(candidate: DcqlValidCredential): Entry {
  const output = candidate.claims.valid_claim_sets[0]?.output
  switch (candidate.record.type) {
    case 'MdocRecord':
      return { claimFormat: ClaimFormat.MsoMdoc, credentialRecord: candidate.record, disclosedPayload: output as never }
    case 'SdJwtVcRecord':
      return { claimFormat: ClaimFormat.SdJwtDc, credentialRecord: candidate.record, disclosedPayload: output as never }
    case 'W3cCredentialRecord':
      return {
        claimFormat: candidate.record.firstCredential.claimFormat,
        credentialRecord: candidate.record,
        disclosedPayload: candidate.record.firstCredential.jsonCredential as never,
      }
    default:
      return {
        claimFormat: candidate.record.firstCredential.claimFormat,
        credentialRecord: candidate.record,
        disclosedPayload: output as never,
      } as Entry
  }
}

function withheld(entry: Entry, paths: string[][], queryId: string): Entry {
  if (paths.length === 0) return entry
  if (entry.claimFormat !== ClaimFormat.SdJwtDc && entry.claimFormat !== ClaimFormat.MsoMdoc) {
    throw new InvalidInputError('Invalid selections', [
      { field: `selections.${queryId}.withhold`, message: 'only SD-JWT VC and mdoc claims can be withheld' },
    ])
  }
  const payload = structuredClone(entry.disclosedPayload) as Record<string, unknown>
  for (const path of paths) {
    if (!Array.isArray(path) || path.length === 0 || !removeAt(payload, path)) {
      throw new InvalidInputError('Invalid selections', [
        { field: `selections.${queryId}.withhold`, message: `${JSON.stringify(path)} is not a requested claim` },
      ])
    }
  }
  return { ...entry, disclosedPayload: payload } as Entry
}

function removeAt(node: Record<string, unknown>, path: string[]): boolean {
  const [head, ...rest] = path
  if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, head)) return false
  if (rest.length === 0) {
    delete node[head]
    return true
  }
  return removeAt(node[head] as Record<string, unknown>, rest)
}
