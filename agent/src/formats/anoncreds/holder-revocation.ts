import { readFile } from 'node:fs/promises'

import {
  type AnonCredsCredential,
  type AnonCredsCredentialRecord,
  AnonCredsError as CredoAnonCredsError,
  type CreateProofOptions,
} from '@credo-ts/anoncreds'

import { createOrUpdateRevocationState } from '../../anoncreds'

/**
 * The revocation state of a revocable credential at the status list of `timestamp`, from the registry Credo resolved
 * for the request (definition, tails file path, lists by timestamp). A credential that is not revocable has none
 * (anoncreds-rs ignores the timestamp then too).
 * @throws CredoAnonCredsError when the registry or its list at that timestamp was not resolved
 */
export async function revocationStateFor(
  record: AnonCredsCredentialRecord,
  timestamp: number,
  options: CreateProofOptions,
  tailsFiles: Map<string, Promise<Uint8Array>>,
): Promise<unknown> {
  const revocationRegistryId = record.credential.rev_reg_id
  const index = record.credentialRevocationId ?? revocationIndexOf(record.credential)
  if (!revocationRegistryId || index === undefined) return undefined
  const registry = options.revocationRegistries[revocationRegistryId]
  if (!registry) throw new CredoAnonCredsError(`Revocation registry ${revocationRegistryId} was not resolved`)
  const list = registry.revocationStatusLists[timestamp]
  if (!list)
    throw new CredoAnonCredsError(`No status list of revocation registry ${revocationRegistryId} at ${timestamp}`)
  let tailsFile = tailsFiles.get(registry.tailsFilePath)
  if (!tailsFile) {
    tailsFile = readFile(registry.tailsFilePath).then((bytes) => new Uint8Array(bytes))
    tailsFiles.set(registry.tailsFilePath, tailsFile)
  }
  // Checks the tails file against the definition's hash before using it.
  return createOrUpdateRevocationState({
    revocationRegistryDefinition: registry.definition,
    revocationStatusList: list,
    revocationRegistryIndex: Number(index),
    tailsFile: await tailsFile,
  })
}

/** The credential's index in its registry (`r_credential.i`), as Credo stores it: a decimal string. */
export function revocationIndexOf(credential: AnonCredsCredential): string | undefined {
  const index = (credential.signature as { r_credential?: { i?: unknown } | null }).r_credential?.i
  return typeof index === 'number' && Number.isInteger(index) ? String(index) : undefined
}
