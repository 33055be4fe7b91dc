import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { User } from './user.entity'
import { BaseRepository } from '../../infra/db/base.repository'

export interface NewUser {
  email: string
  firstName: string
  lastName: string
  passwordHash: string
  isEmailVerified: boolean
  clientAlias: string | null
}

/** User lookups by address; addresses are stored and looked up lower-cased (see auth dto/normalize.ts). */
@injectable()
export class UsersRepository extends BaseRepository<User> {
  public constructor(em: EntityManager) {
    super(em, User)
  }

  public async findById(userId: string): Promise<User | null> {
    return this.em.findOne(User, { id: userId })
  }

  public async findByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email })
  }

  public async existsByEmail(email: string): Promise<boolean> {
    return (await this.em.count(User, { email })) > 0
  }

  /** The user with the lazily loaded password hash, for sign-in only. */
  public async findWithPasswordHash(email: string): Promise<User | null> {
    return this.em.findOne(User, { email }, { populate: ['passwordHash'] })
  }

  /** Persists a new user; a concurrent sign-up for the same address fails on the unique index. */
  public async add(data: NewUser): Promise<User> {
    const user = this.em.create(User, data)
    await this.em.flush()
    return user
  }
}
