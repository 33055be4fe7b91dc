import { getUnqualifiedRevocationRegistryDefinitionId, parseIndyRevocationRegistryId } from '@credo-ts/anoncreds'

/** The legacy form of a did:indy registry id (`<did>:4:<did>:3:CL:<seq>:<tag>:CL_ACCUM:<tag>`), which Issue Credential v1 carries. */
export function legacyRevocationRegistryId(id: string): string {
  const parsed = parseIndyRevocationRegistryId(id)
  return getUnqualifiedRevocationRegistryDefinitionId(
    parsed.namespaceIdentifier,
    parsed.schemaSeqNo,
    parsed.credentialDefinitionTag,
    parsed.revocationRegistryTag,
  )
}
