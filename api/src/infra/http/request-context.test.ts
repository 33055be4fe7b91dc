import { RequestContext, type EntityManager } from '@mikro-orm/core'
import type { NextFunction, Request, Response } from 'express'
import { ormRequestContext } from './request-context'

/**
 * A root entity manager whose forks are counted (the edge of this unit: no database). Like MikroORM's, a fork
 * being made looks up the current context; what it found is kept.
 */
function aRoot(): { root: EntityManager; forks: EntityManager[]; foundWhileForking: unknown[] } {
  const forks: EntityManager[] = []
  const foundWhileForking: unknown[] = []
  const root = {
    name: 'default',
    fork: () => {
      foundWhileForking.push(RequestContext.getEntityManager())
      const fork = { name: 'default' } as EntityManager
      forks.push(fork)
      return fork
    },
  } as unknown as EntityManager
  return { root, forks, foundWhileForking }
}

const run = (middleware: ReturnType<typeof ormRequestContext>, next: NextFunction) =>
  middleware({} as Request, {} as Response, next)

describe('ormRequestContext', () => {
  it("forks the entity manager at the request's first lookup, once, and MikroORM finds that fork", () => {
    const { root, forks, foundWhileForking } = aRoot()
    let found: (EntityManager | undefined)[] = []
    run(ormRequestContext({ em: root } as never), () => {
      expect(forks).toHaveLength(0)
      found = [
        RequestContext.getEntityManager(),
        RequestContext.getEntityManager(),
        RequestContext.currentRequestContext()?.em,
      ]
    })
    expect(forks).toHaveLength(1)
    expect(found).toEqual([forks[0], forks[0], forks[0]])
    // The fork found no context while it was made (it would otherwise fork again, without end).
    expect(foundWhileForking).toEqual([undefined])
    expect(RequestContext.getEntityManager()).toBeUndefined()
  })

  it('never forks for a request that does not use it, and gives each request its own', () => {
    const { root, forks } = aRoot()
    const middleware = ormRequestContext({ em: root } as never)
    run(middleware, () => undefined)
    expect(forks).toHaveLength(0)
    const seen: (EntityManager | undefined)[] = []
    run(middleware, () => seen.push(RequestContext.getEntityManager()))
    run(middleware, () => seen.push(RequestContext.getEntityManager()))
    expect(forks).toHaveLength(2)
    expect(seen[0]).not.toBe(seen[1])
    // Another name (no second database here) is nobody's.
    run(middleware, () => expect(RequestContext.getEntityManager('other')).toBeUndefined())
  })
})
