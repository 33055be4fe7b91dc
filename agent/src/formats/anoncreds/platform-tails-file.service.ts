import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'

import {
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsRevocationRegistryDefinition,
  type TailsFileService,
} from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'

import { tailsHash } from '../../anoncreds/revocation'
import type { LedgerClient } from '../../ledger/ledger-client'
import { downloadTailsFile } from '../../ledger/ledger-tails-files'
import { OutboundTargetGuard } from '../../transport/outbound-target-guard'

/** A tails hash is base58 (it names a file: nothing else may reach the path). */
const TAILS_HASH = /^[1-9A-HJ-NP-Za-km-z]{20,64}$/

/**
 * Credo's TailsFileService on the platform's tails-file store (`POST /v1/tails-files`, served publicly at the URL
 * it answers). Files are kept in a local directory under their hash, as a cache only: every file is checked against
 * its registry definition's `tailsHash` when downloaded and again when read (the holder's revocation state checks it
 * too), so the directory may be shared by agents and lost at any time.
 *
 * Credo's flow: the issuer service writes the new registry's tails file here and names its path as `tailsLocation`;
 * `uploadTailsFile` stores that file on the platform and answers its public URL, which Credo puts in the definition
 * before registering it; `getTailsFile` gives the local path of a definition's file, downloading it when absent.
 */
export class PlatformTailsFileService implements TailsFileService {
  public constructor(
    private readonly ledger: LedgerClient,
    private readonly directory: string,
  ) {}

  public async getTailsBasePath(): Promise<string> {
    await mkdir(this.directory, { recursive: true })
    return this.directory
  }

  /** @throws CredoAnonCredsError when the local file is not the definition's, or the platform refuses it */
  public async uploadTailsFile(
    _agentContext: AgentContext,
    options: { revocationRegistryDefinition: AnonCredsRevocationRegistryDefinition },
  ): Promise<{ tailsFileUrl: string }> {
    const { tailsHash: expected, tailsLocation } = options.revocationRegistryDefinition.value
    const local = this.pathOf(expected)
    // Only a file this service's directory holds is uploaded (the location is the issuer service's local path).
    if (path.resolve(tailsLocation) !== local)
      throw new CredoAnonCredsError(`The tails file to upload must be ${local}, not ${tailsLocation}`)
    const bytes = new Uint8Array(await readFile(local))
    if (tailsHash(bytes) !== expected)
      throw new CredoAnonCredsError(`The tails file at ${local} does not have the registry's hash ${expected}`)
    const stored = await this.ledger.uploadTailsFile(bytes)
    if (stored.tailsHash !== expected)
      throw new CredoAnonCredsError(`The platform stored the tails file under ${stored.tailsHash}, not ${expected}`)
    return { tailsFileUrl: stored.tailsLocation }
  }

  /** @throws TailsFileError when the file cannot be downloaded or is not the registry's */
  public async getTailsFile(
    agentContext: AgentContext,
    options: { revocationRegistryDefinition: AnonCredsRevocationRegistryDefinition },
  ): Promise<{ tailsFilePath: string }> {
    const definition = options.revocationRegistryDefinition
    const local = this.pathOf(definition.value.tailsHash)
    const cached = await readFile(local).catch(() => undefined)
    if (cached && tailsHash(new Uint8Array(cached)) === definition.value.tailsHash) return { tailsFilePath: local }
    const guard = agentContext.dependencyManager.isRegistered(OutboundTargetGuard)
      ? agentContext.dependencyManager.resolve(OutboundTargetGuard)
      : undefined
    const bytes = await downloadTailsFile(definition, { guard })
    await this.write(local, bytes)
    return { tailsFilePath: local }
  }

  /** Writes under a temporary name first, so a reader never sees half a file. */
  public async write(local: string, bytes: Uint8Array): Promise<void> {
    await mkdir(this.directory, { recursive: true })
    const temporary = `${local}.${process.pid}.${Math.random().toString(36).slice(2)}.part`
    await writeFile(temporary, bytes)
    await rename(temporary, local)
  }

  /** @throws CredoAnonCredsError for a hash that is not base58 */
  public pathOf(hash: string): string {
    if (typeof hash !== 'string' || !TAILS_HASH.test(hash))
      throw new CredoAnonCredsError('The registry definition has a malformed tailsHash')
    return path.resolve(this.directory, hash)
  }
}
