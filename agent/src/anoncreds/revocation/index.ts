/**
 * AnonCreds revocation (CL_ACCUM, the CKS accumulator on Milagro's BN254), JSON for JSON as anoncreds-rs. The flow,
 * with the functions that make each step (inputs and outputs are the anoncreds-rs JSON objects):
 *
 * Issuer
 *   1. createCredentialDefinition({ ..., supportRevocation: true })       ../credential-definition.ts
 *      -> `value.revocation` (public) and `r_key` (private) next to the CL key.
 *   2. createRevocationRegistryDefinition({ credentialDefinition, credentialDefinitionId, issuerId, tag,
 *      maximumCredentialNumber, tailsLocation })                             (async: the tails file is computed in
 *      worker threads) -> { revocationRegistryDefinition, revocationRegistryDefinitionPrivate (gamma), tailsFile }.
 *      Publish the definition; serve `tailsFile` at `tailsLocation` (its name is usually `tailsHash`).
 *   3. createRevocationStatusList({ ..., revocationRegistryDefinitionId, timestamp }) -> the first status list.
 *   4. createCredential({ ..., revocationConfiguration: { revocationRegistryDefinition,
 *      revocationRegistryDefinitionPrivate, revocationStatusList, registryIndex } })              ../credential.ts
 *      Indices run from FIRST_REVOCATION_INDEX (1) to lastRevocationIndex(maxCredNum) = maxCredNum - 1: anoncreds-rs'
 *      status list has maxCredNum bits, bit i for index i, and bit 0 is no credential. Never give an index twice.
 *   5. updateRevocationStatusList({ ..., revocationStatusList, revoked: [i...], issued: [i...], timestamp }) ->
 *      the next list (bits and accumulator); publish it. updateRevocationStatusListTimestampOnly re-dates one.
 * Holder
 *   6. createCredentialRequest (adds `ur`/`vr_prime`), processCredential({ ..., revocationRegistryDefinition })
 *      checks the non-revocation signature and witness.                                         ../credential.ts
 *   7. checkTailsFile(tailsFile, revocationRegistryDefinition) once downloaded; then
 *      createOrUpdateRevocationState({ revocationRegistryDefinition, revocationStatusList, revocationRegistryIndex
 *      (r_credential.i), tailsFile, oldRevocationState?, oldRevocationStatusList? }) -> { witness, rev_reg, timestamp }.
 *   8. createPresentation({ ..., credentials: [{ credential, revocationState, timestamp? }] }) adds the
 *      non-revocation proof for that status list.                                              ../presentation.ts
 * Verifier
 *   9. verifyPresentation / checkPresentation({ ..., revocationRegistryDefinitions: { [id]: definition },
 *      revocationStatusLists: [lists at the identifiers' timestamps], nonRevokedIntervalOverrides? })  ../verify.ts
 *
 * Errors are AnonCredsError: `malformed` for a shape anoncreds-rs would not read, `invalid` for objects that do not
 * fit together (another registry, a tampered tails file, a wrong witness); a presentation that does not hold is
 * `false` (checkPresentation says why). docs/decisions.md "AnonCreds revocation" has the choices made.
 */
export {
  checkTailsFile,
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  FIRST_REVOCATION_INDEX,
  lastRevocationIndex,
  MAX_CRED_NUM,
  readRevocationRegistryDefinition,
  readRevocationStatusList,
  updateRevocationStatusList,
  updateRevocationStatusListTimestampOnly,
  type CreateRevocationRegistryDefinitionOptions,
  type CreateRevocationRegistryDefinitionResult,
  type CreateRevocationStatusListOptions,
  type UpdateRevocationStatusListOptions,
} from './registry'
export { createOrUpdateRevocationState, type CreateOrUpdateRevocationStateOptions } from './revocation-state'
export { tailsHash } from './tails'
export type * from './types'
