import { injectable } from 'inversify'
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import { TailsFile } from './tails-file.entity'

/** Tails files by hash. Rows are written once and never changed. */
@injectable()
export class TailsFilesRepository {
  public constructor(private readonly em: EntityManager) {}

  /** The file's size, without its content; undefined when absent. */
  public async sizeOf(hash: string): Promise<number | undefined> {
    const found = await this.em.fork().findOne(TailsFile, { hash }, { fields: ['hash', 'size'] })
    return found?.size
  }

  public async content(hash: string): Promise<Buffer | undefined> {
    const found = await this.em.fork().findOne(TailsFile, { hash }, { populate: ['content'] })
    return found ? Buffer.from(found.content) : undefined
  }

  /** Stores the file unless a file of that hash is there (then the same bytes are: the hash names them). */
  public async insertIfAbsent(file: { hash: string; content: Buffer; uploadedByOrgId: string | null }): Promise<void> {
    try {
      await this.em.fork().insert(TailsFile, { ...file, size: file.content.length, createdAt: new Date() })
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error
    }
  }
}
