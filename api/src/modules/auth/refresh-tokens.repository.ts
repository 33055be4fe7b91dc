import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { RefreshToken } from './refresh-token.entity'
import { User } from '../users/user.entity'
import { BaseRepository } from '../../infra/db/base.repository'

export interface NewRefreshToken {
  userId: string
  familyId: string
  tokenHash: string
  expiresAt: Date
}

/** Refresh tokens by digest and by family (one family = one sign-in session). */
@injectable()
export class RefreshTokensRepository extends BaseRepository<RefreshToken> {
  public constructor(em: EntityManager) {
    super(em, RefreshToken)
  }

  public async add(data: NewRefreshToken): Promise<RefreshToken> {
    const token = this.em.create(RefreshToken, {
      user: this.em.getReference(User, data.userId),
      familyId: data.familyId,
      tokenHash: data.tokenHash,
      expiresAt: data.expiresAt,
    })
    await this.em.flush()
    return token
  }

  /** The token with this digest, with its user loaded. */
  public async findByHash(tokenHash: string): Promise<RefreshToken | null> {
    return this.em.findOne(RefreshToken, { tokenHash }, { populate: ['user'] })
  }

  /** Marks the token used unless it already was used or revoked; false when another request got there first. */
  public async markUsed(token: RefreshToken, at: Date): Promise<boolean> {
    const updated = await this.em.nativeUpdate(
      RefreshToken,
      { id: token.id, usedAt: null, revokedAt: null },
      { usedAt: at },
    )
    return updated === 1
  }

  /** Revokes every token of the family that is not revoked yet; resolves with how many. */
  public async revokeFamily(familyId: string, at: Date): Promise<number> {
    return this.em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: at })
  }
}
