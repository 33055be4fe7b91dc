import { InvalidStateError } from '@idplane/common'
import type { CredentialStatusListJson } from '@idplane/common/agent-contract/openid4vc-api'

import { isPlainObject } from './claim-values'
import type { CredentialTemplateRecord } from './credential-template.record'

/**
 * Why a Token Status List entry cannot go into this template's credentials, if it cannot: only SD-JWT VCs carry one
 * (Credo 0.6.3 writes no status into an mdoc, and signs W3C JWT VCs without one; docs/decisions.md).
 */
export function statusProblem(format: CredentialTemplateRecord['format'], status: unknown): string | undefined {
  if (format !== 'dc+sd-jwt') return `is only for dc+sd-jwt templates, not ${format}`
  if (!isPlainObject(status)) return 'must be { idx, uri }'
  const { idx, uri } = status
  if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0) return 'idx must be a whole number from 0'
  if (typeof uri !== 'string' || !/^https?:\/\/\S+$/.test(uri)) return 'uri must be an http(s) URL'
  return undefined
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
  return { idx: status.idx, uri: status.uri }
}
