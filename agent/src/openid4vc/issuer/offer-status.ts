import { InvalidStateError } from '@idplane/common'
import type { CredentialStatusListJson } from '@idplane/common/agent-contract/openid4vc-api'

import { MAX_BATCH_SIZE } from './batch-size'
import { isPlainObject } from './claim-values'
import type { CredentialTemplateRecord } from './credential-template.record'

/**
 * Why a Token Status List entry cannot go into this template's credentials, if it cannot: SD-JWT VCs and mdocs carry
 * one (W3C JWT VCs would carry a W3C `credentialStatus`, which Credo 0.6.3 signs without; docs/decisions.md).
 * `copyIdx` are the entries of a batch's further copies.
 */
export function statusProblem(format: CredentialTemplateRecord['format'], status: unknown): string | undefined {
  if (format !== 'dc+sd-jwt' && format !== 'mso_mdoc')
    return `is only for dc+sd-jwt and mso_mdoc templates, not ${format}`
  if (!isPlainObject(status)) return 'must be { idx, uri, copyIdx? }'
  const { idx, uri } = status
  if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0) return 'idx must be a whole number from 0'
  if (typeof uri !== 'string' || !/^https?:\/\/\S+$/.test(uri)) return 'uri must be an http(s) URL'
  if (status.certificateId !== undefined && (typeof status.certificateId !== 'string' || status.certificateId === ''))
    return 'certificateId must be a certificate id'
  const { copyIdx } = status
  if (copyIdx === undefined) return undefined
  if (!Array.isArray(copyIdx) || copyIdx.length >= MAX_BATCH_SIZE)
    return `copyIdx must be a list of fewer than ${MAX_BATCH_SIZE} indices`
  if (!copyIdx.every((one) => typeof one === 'number' && Number.isInteger(one) && one >= 0))
    return 'copyIdx must hold whole numbers from 0'
  if (new Set([idx, ...copyIdx]).size !== copyIdx.length + 1) return 'idx and copyIdx must all differ'
  return undefined
}

/**
 * The entry of copy `copy` (0 for the first) of a batch. An entry without `copyIdx` (an offer made before copies had
 * their own) gives every copy `idx`.
 * @throws InvalidStateError when the wallet asked for more copies than the offer holds entries for
 */
export function statusOfCopy(status: CredentialStatusListJson, copy: number): { idx: number; uri: string } {
  if (copy === 0 || status.copyIdx === undefined) return { idx: status.idx, uri: status.uri }
  const idx = status.copyIdx[copy - 1]
  if (idx === undefined)
    throw new InvalidStateError(
      `The offer holds status entries for ${status.copyIdx.length + 1} copies; the wallet asked for more`,
    )
  return { idx, uri: status.uri }
}

/**
 * The entry an offer stored for a template (`issuanceMetadata.statuses[templateId]`), if any.
 * @throws InvalidStateError when what is stored is not `{ idx, uri }`
 */
export function storedStatus(
  issuanceMetadata: Record<string, unknown> | undefined,
  templateId: string,
): CredentialStatusListJson | undefined {
  const statuses = issuanceMetadata?.statuses
  const status = isPlainObject(statuses) ? statuses[templateId] : undefined
  if (status === undefined) return undefined
  if (!isPlainObject(status) || typeof status.idx !== 'number' || typeof status.uri !== 'string')
    throw new InvalidStateError('The offer holds a malformed status for this credential')
  const { copyIdx } = status
  if (copyIdx !== undefined && !(Array.isArray(copyIdx) && copyIdx.every((one) => typeof one === 'number')))
    throw new InvalidStateError('The offer holds a malformed status for this credential')
  const { certificateId } = status
  if (certificateId !== undefined && typeof certificateId !== 'string')
    throw new InvalidStateError('The offer holds a malformed status for this credential')
  return {
    idx: status.idx,
    uri: status.uri,
    ...(copyIdx ? { copyIdx: copyIdx as number[] } : {}),
    ...(certificateId ? { certificateId } : {}),
  }
}
