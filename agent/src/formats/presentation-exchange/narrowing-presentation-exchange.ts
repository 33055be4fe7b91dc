import {
  type AgentContext,
  ClaimFormat,
  type DependencyManager,
  DifPresentationExchangeModule,
  DifPresentationExchangeService,
  type DifPresentationExchangeDefinition,
  injectable,
  W3cCredentialRecord,
  W3cCredentialService,
} from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

import type { MirroredRow } from '../../adapters/storage/record-mirror'
import { withRowNarrowing } from '../../adapters/storage/row-narrowing'
import { mayMatchDefinition, type PresentationDefinitionV1Like } from './candidate-prefilter'
import { installLinearFilterEvaluation } from './linear-filter-evaluation'

type CandidateQuery = (agentContext: AgentContext, definition: DifPresentationExchangeDefinition) => Promise<unknown[]>

/**
 * Credo's query for a definition's candidate records: declared private, but it is the one place candidates are
 * listed, so we wrap it. Checked when this module loads, so a Credo upgrade that moves it fails at start, not quietly.
 */
const queryCandidates = (DifPresentationExchangeService.prototype as unknown as Record<string, unknown>)
  .queryCredentialForPresentationDefinition as CandidateQuery | undefined
if (typeof queryCandidates !== 'function') {
  throw new Error('DifPresentationExchangeService.queryCredentialForPresentationDefinition is missing (Credo changed)')
}

/**
 * Credo's presentation-exchange service with the holder's candidates narrowed first (candidate-prefilter.ts):
 * JSON-LD credentials that certainly satisfy no input descriptor are dropped before PEX, so answering a proof request
 * costs per credential that could match, not per credential in the wallet.
 */
@injectable()
export class NarrowingDifPresentationExchangeService extends DifPresentationExchangeService {
  // Declared again so the injector sees the parameter type (decorator metadata is per class).
  public constructor(w3cCredentialService: W3cCredentialService) {
    super(w3cCredentialService)
  }
}

Object.defineProperty(NarrowingDifPresentationExchangeService.prototype, 'queryCredentialForPresentationDefinition', {
  value: async function narrowedCandidates(
    this: DifPresentationExchangeService,
    agentContext: AgentContext,
    definition: DifPresentationExchangeDefinition,
  ): Promise<unknown[]> {
    if (!('input_descriptors' in definition)) return queryCandidates.call(this, agentContext, definition)
    const v1 = definition as unknown as PresentationDefinitionV1Like
    // The stored rows are narrowed first (when the store mirrors them), so a credential that cannot match is never
    // parsed nor copied; the instances are narrowed again for a store that does not.
    const records = await withRowNarrowing(
      { recordType: W3cCredentialRecord.type, mayKeep: (row) => mayMatchRow(row, v1) },
      () => queryCandidates.call(this, agentContext, definition),
    )
    const context = agentContext.contextCorrelationId
    return records.filter((record) => mayMatch(context, record, v1))
  },
})

/** Encoded JSON-LD credentials by record version (a stored credential never changes; a new version is a new key). */
const MAX_ENCODED = 5000
const encodedByVersion = new BoundedMap<string, object | null>(MAX_ENCODED)

function mayMatch(context: string, record: unknown, definition: PresentationDefinitionV1Like): boolean {
  if (!(record instanceof W3cCredentialRecord)) return true
  const encoded = encodedCredential(context, record)
  return encoded === null || mayMatchDefinition(definition, encoded)
}

/** Encoded JSON-LD credentials by stored row (a row is never changed: a write makes a new one). */
const encodedByRow = new BoundedMap<MirroredRow, object | null>(MAX_ENCODED)

/** The test of `mayMatch` on a stored W3cCredentialRecord row, before any instance of it is made. */
export function mayMatchRow(row: MirroredRow, definition: PresentationDefinitionV1Like): boolean {
  const encoded = encodedByRow.remembered(row, () => storedLdpCredential(row.json))
  return encoded === null || mayMatchDefinition(definition, encoded)
}

/**
 * The first credential of a stored W3cCredentialRecord as its record keeps it, which is the credential's encoded
 * form: an object for JSON-LD, a string for a JWT (null: left to PEX, as `encodedCredential` leaves it).
 */
function storedLdpCredential(json: string): object | null {
  const value = JSON.parse(json) as { credentialInstances?: { credential?: unknown }[] } | null
  const credential = value?.credentialInstances?.[0]?.credential
  return typeof credential === 'object' && credential !== null && !Array.isArray(credential) ? credential : null
}

/**
 * The JSON PEX itself is given (Credo passes the encoded credential), remembered per record version: parsing a
 * credential instance costs more than the test. null for JWT credentials, which are left to PEX.
 */
function encodedCredential(context: string, record: W3cCredentialRecord): object | null {
  const version = `${context}:${record.id}:${(record.updatedAt ?? record.createdAt).getTime()}`
  let encoded = encodedByVersion.get(version)
  if (encoded === undefined) {
    const credential = record.firstCredential
    encoded = credential.claimFormat === ClaimFormat.LdpVc ? (credential.encoded as object) : null
    encodedByVersion.set(version, encoded)
  }
  return encoded
}

/**
 * Replaces Credo's default `pex` module: the same service, narrowed, and PEX's filters evaluated with the linear-time
 * pattern matcher (linear-filter-evaluation.ts).
 */
export class NarrowingDifPresentationExchangeModule extends DifPresentationExchangeModule {
  public override register(dependencyManager: DependencyManager): void {
    installLinearFilterEvaluation()
    dependencyManager.registerSingleton(DifPresentationExchangeService, NarrowingDifPresentationExchangeService)
  }
}
