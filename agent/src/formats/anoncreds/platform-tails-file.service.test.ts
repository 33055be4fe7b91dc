import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

import type { AnonCredsRevocationRegistryDefinition } from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'

import { tailsHash } from '../../anoncreds/revocation'
import type { LedgerClient } from '../../ledger/ledger-client'
import { PlatformTailsFileService } from './platform-tails-file.service'

// The edge of this unit: the platform's store (LedgerClient.uploadTailsFile) and Credo's context (unused here).
const context = { dependencyManager: { isRegistered: () => false } } as unknown as AgentContext
const bytes = new Uint8Array([0, 2, 1, 2, 3, 4])
const hash = tailsHash(bytes)

function definition(value: Partial<AnonCredsRevocationRegistryDefinition['value']>) {
  return {
    issuerId: 'did:example',
    revocDefType: 'CL_ACCUM',
    tag: 't',
    credDefId: 'cred-def',
    value: { maxCredNum: 4, publicKeys: { accumKey: { z: '1' } }, tailsHash: hash, tailsLocation: 'x', ...value },
  } as AnonCredsRevocationRegistryDefinition
}

describe('PlatformTailsFileService', () => {
  let directory: string
  const uploads: Uint8Array[] = []
  const ledger = {
    uploadTailsFile: async (file: Uint8Array) => {
      uploads.push(file)
      return { tailsHash: tailsHash(file), tailsLocation: `https://platform.example/v1/tails-files/${tailsHash(file)}` }
    },
  } as unknown as LedgerClient
  let service: PlatformTailsFileService

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'tails-test-'))
    service = new PlatformTailsFileService(ledger, directory)
  })
  afterAll(() => rm(directory, { recursive: true, force: true }))

  it('uploads the file the issuer service wrote under its hash and answers its public URL', async () => {
    const local = service.pathOf(hash)
    await service.write(local, bytes)
    const answer = await service.uploadTailsFile(context, {
      revocationRegistryDefinition: definition({ tailsLocation: local }),
    })
    expect(answer).toEqual({ tailsFileUrl: `https://platform.example/v1/tails-files/${hash}` })
    expect(Buffer.from(uploads[0]).equals(Buffer.from(bytes))).toBe(true)
  })

  it('uploads nothing from outside its directory, nor a file that is not the registry one', async () => {
    const elsewhere = path.join(tmpdir(), hash)
    await expect(
      service.uploadTailsFile(context, { revocationRegistryDefinition: definition({ tailsLocation: elsewhere }) }),
    ).rejects.toThrow(/must be/)
    const local = service.pathOf(hash)
    await writeFile(local, Buffer.from('altered'))
    await expect(
      service.uploadTailsFile(context, { revocationRegistryDefinition: definition({ tailsLocation: local }) }),
    ).rejects.toThrow(/does not have the registry's hash/)
  })

  it('gives the cached file when its hash holds, and refuses a tailsHash that could name another path', async () => {
    const local = service.pathOf(hash)
    await service.write(local, bytes)
    const found = await service.getTailsFile(context, { revocationRegistryDefinition: definition({}) })
    expect(found).toEqual({ tailsFilePath: local })
    expect(Buffer.from(await readFile(local)).equals(Buffer.from(bytes))).toBe(true)
    expect(() => service.pathOf('../../etc/passwd')).toThrow(/malformed tailsHash/)
    await expect(
      service.getTailsFile(context, { revocationRegistryDefinition: definition({ tailsHash: '../x' }) }),
    ).rejects.toThrow(/malformed tailsHash/)
  })
})
