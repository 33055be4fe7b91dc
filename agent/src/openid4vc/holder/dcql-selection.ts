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
  for (const [queryId, selection] of Object.entries(selections)) {
    if (!result.credential_matches[queryId])
      problems.push({ field: `selections.${queryId}`, message: 'is not a credential query of the request' })
    else problems.push(...selectionProblems(queryId, selection))
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

/** The selection's members and their JSON types (it arrives from the admin API as any JSON). */
function selectionProblems(queryId: string, selection: unknown): FieldError[] {
  const field = `selections.${queryId}`
  if (typeof selection !== 'object' || selection === null || Array.isArray(selection))
    return [{ field, message: 'must be an object' }]
  const { credentialId, withhold, omit } = selection as Record<string, unknown>
  const problems: FieldError[] = []
  if (credentialId !== undefined && typeof credentialId !== 'string')
    problems.push({ field: `${field}.credentialId`, message: 'must be a string' })
  if (omit !== undefined && typeof omit !== 'boolean')
    problems.push({ field: `${field}.omit`, message: 'must be a boolean' })
  const isPathList =
    Array.isArray(withhold) &&
    withhold.every((path) => Array.isArray(path) && path.every((part) => typeof part === 'string'))
  if (withhold !== undefined && !isPathList)
    problems.push({ field: `${field}.withhold`, message: 'must be a list of claim paths (lists of strings)' })
  return problems
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
