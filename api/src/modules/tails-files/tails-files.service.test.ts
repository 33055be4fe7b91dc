import { Readable } from 'node:stream'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import type { Config } from '../../infra/config'
import type { TailsFilesRepository } from './tails-files.repository'
import { TailsFilesService, TailsFileTooLargeError, tailsHashOf } from './tails-files.service'

/** The repository at the unit's edge: a map. */
class MemoryFiles {
  public readonly rows = new Map<string, Buffer>()
  public async sizeOf(hash: string) {
    return this.rows.get(hash)?.length
  }
  public async content(hash: string) {
    return this.rows.get(hash)
  }
  public async insertIfAbsent(file: { hash: string; content: Buffer }) {
    if (!this.rows.has(file.hash)) this.rows.set(file.hash, file.content)
  }
}

const config = {
  http: { publicUrl: 'https://platform.example/' },
  sections: { 'tails-files': { maxBytes: 4096 } },
} as unknown as Config

/** A tails file's layout for a registry of `maxCredNum`: version 0 2, then 2L + 1 points of 128 bytes. */
function tailsOf(maxCredNum: number, fill = 7): Buffer {
  const file = Buffer.alloc(2 + (2 * maxCredNum + 1) * 128, fill)
  file[0] = 0
  file[1] = 2
  return file
}

describe('tails files', () => {
  let files: MemoryFiles
  let service: TailsFilesService
  beforeEach(() => {
    files = new MemoryFiles()
    service = new TailsFilesService(files as unknown as TailsFilesRepository, config)
  })

  it('stores a file under base58(SHA-256) and answers its public URL; the same bytes again are not new', async () => {
    const file = tailsOf(10)
    const first = await service.upload(Readable.from([file.subarray(0, 100), file.subarray(100)]), 'org')
    const hash = tailsHashOf(file)
    expect(first).toEqual({
      file: { tailsHash: hash, tailsLocation: `https://platform.example/v1/tails-files/${hash}`, size: file.length },
      isNew: true,
    })
    expect((await service.upload(Readable.from([file]), null)).isNew).toBe(false)
    expect((await service.content(hash)).equals(file)).toBe(true)
  })

  it('refuses what is not laid out as a tails file (400) and what is over the limit (413)', async () => {
    const notTails = [
      Buffer.from('hello'),
      tailsOf(10).subarray(0, 2 + 20 * 128),
      Buffer.concat([tailsOf(10), Buffer.alloc(1)]),
      Buffer.from([1, 2, ...tailsOf(10).subarray(2)]),
      tailsOf(1),
    ]
    for (const body of notTails)
      await expect(service.upload(Readable.from([body]), null)).rejects.toThrow(InvalidInputError)
    await expect(service.upload(Readable.from([tailsOf(20)]), null)).rejects.toThrow(TailsFileTooLargeError)
    expect(files.rows.size).toBe(0)
  })

  it('answers 400 for what is not a hash and 404 for a hash it does not hold', async () => {
    await expect(service.content('not-a-hash')).rejects.toThrow(InvalidInputError)
    await expect(service.content(`1${tailsHashOf(tailsOf(2))}`)).rejects.toThrow(InvalidInputError)
    await expect(service.content(tailsHashOf(tailsOf(2)))).rejects.toThrow(NotFoundError)
  })
})
