import { injectable } from 'inversify'
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import { BaseRepository } from '../../infra/db/base.repository'
import { TailsFile } from './tails-file.entity'

/**
 * Tails files by hash. Rows are written once and never changed. Reads bypass the identity map: a file (megabytes)
 * is read afresh and not kept for the rest of the request.
 */
@injectable()
export class TailsFilesRepository extends BaseRepository<TailsFile> {
  public constructor(em: EntityManager) {
    super(em, TailsFile)
  }

  /** The file's size, without its content; undefined when absent. */
  public async sizeOf(hash: string): Promise<number | undefined> {
    const found = await this.em.findOne(TailsFile, { hash }, { fields: ['hash', 'size'], disableIdentityMap: true })
    return found?.size
  }

  public async content(hash: string): Promise<Buffer | undefined> {
    const found = await this.em.findOne(TailsFile, { hash }, { populate: ['content'], disableIdentityMap: true })
    return found ? Buffer.from(found.content) : undefined
  }

  /** Stores the file unless a file of that hash is there (then the same bytes are: the hash names them). */
  public async insertIfAbsent(file: { hash: string; content: Buffer; uploadedByOrgId: string | null }): Promise<void> {
    try {
      await this.em.insert(TailsFile, { ...file, size: file.content.length, createdAt: new Date() })
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error
    }
  }
}
