import { randomUUID } from 'node:crypto'
import { PrimaryKey, Property } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'

/** uuid id and timestamps shared by every platform record (STYLE.md: plural snake_case tables, uuid ids). */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID()

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date()
}
