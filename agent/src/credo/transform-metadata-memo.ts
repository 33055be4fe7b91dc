import type { MetadataStorage } from 'class-transformer/types/MetadataStorage'

/**
 * class-transformer looks up a class's decorators anew for every property of every object it converts: each lookup
 * walks the class's ancestors, and the property lists are filtered and mapped into new arrays on every call. Credo
 * converts every record it stores or reads, every message it sends or receives and every stored message it reads
 * back, so the same lookups run thousands of times per exchange with the same answers (about 2 % of an agent's CPU
 * in the profile, besides the garbage). The answers depend only on the class, the property, the transformation
 * type and the decorators registered, so they are kept until a decorator is added (a class loaded later) or the
 * storage is cleared.
 *
 * The arrays handed out are shared between calls; class-transformer only reads them (it filters into new arrays).
 * Measured in docs/benchmarks.md, "Library work done once". The change belongs in class-transformer
 * (MetadataStorage).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the storage singleton is not in the package's index
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: Storage }

type Storage = MetadataStorage & { [INSTALLED]?: true }

const INSTALLED = Symbol.for('idplane.transformMetadataMemo')

/** Lookups kept, with the number of arguments each takes (the class first, then a property or name, a type). */
const REMEMBERED = [
  ['getStrategy', 1],
  ['getExposedMetadatas', 1],
  ['getExcludedMetadatas', 1],
  ['findExcludeMetadata', 2],
  ['findExposeMetadata', 2],
  ['findExposeMetadataByCustomName', 2],
  ['findTypeMetadata', 2],
  ['getExposedProperties', 2],
  ['getExcludedProperties', 2],
  ['findTransformMetadatas', 3],
] as const

/** What changes the answers: every decorator registration, and clear(). */
const CHANGES = ['addTypeMetadata', 'addTransformMetadata', 'addExposeMetadata', 'addExcludeMetadata', 'clear'] as const

type Lookup = (...args: unknown[]) => unknown
/** Kept in place of an answer that is undefined (a find that found nothing), so that a miss is one `get`. */
const NOTHING = Symbol('nothing')

export function rememberTransformMetadata(storage: Storage = defaultMetadataStorage): void {
  if (storage[INSTALLED]) return
  storage[INSTALLED] = true

  // One table per lookup, by class, then by each further argument: the fewest map reads per call (this runs for
  // every property of every object converted). Nested maps keyed by the arguments themselves: a string key built
  // per call cost more than the lookups it saved.
  const tables: Array<{ clear(): void }> = []
  const methods = storage as unknown as Record<string, Lookup>
  for (const name of CHANGES) {
    const change = methods[name].bind(storage)
    methods[name] = (...args: unknown[]) => {
      for (const table of tables) table.clear()
      return change(...args)
    }
  }
  for (const [name, arity] of REMEMBERED) {
    const lookUp = methods[name].bind(storage)
    const table = { byClass: new WeakMap<object, unknown>(), clear: () => (table.byClass = new WeakMap()) }
    tables.push(table)
    // Only classes are kept; anything else (undefined for a plain object's properties) asks every time.
    methods[name] =
      arity === 1
        ? (target: unknown) => {
            if (typeof target !== 'function') return lookUp(target)
            let answer = table.byClass.get(target)
            if (answer === undefined) table.byClass.set(target, (answer = lookUp(target) ?? NOTHING))
            return answer === NOTHING ? undefined : answer
          }
        : arity === 2
          ? (target: unknown, first?: unknown) => {
              if (typeof target !== 'function') return lookUp(target, first)
              let byFirst = table.byClass.get(target) as Map<unknown, unknown> | undefined
              if (byFirst === undefined) table.byClass.set(target, (byFirst = new Map()))
              let answer = byFirst.get(first)
              if (answer === undefined) byFirst.set(first, (answer = lookUp(target, first) ?? NOTHING))
              return answer === NOTHING ? undefined : answer
            }
          : (target: unknown, first?: unknown, second?: unknown) => {
              if (typeof target !== 'function') return lookUp(target, first, second)
              let byFirst = table.byClass.get(target) as Map<unknown, Map<unknown, unknown>> | undefined
              if (byFirst === undefined) table.byClass.set(target, (byFirst = new Map()))
              let bySecond = byFirst.get(first)
              if (bySecond === undefined) byFirst.set(first, (bySecond = new Map()))
              let answer = bySecond.get(second)
              if (answer === undefined) bySecond.set(second, (answer = lookUp(target, first, second) ?? NOTHING))
              return answer === NOTHING ? undefined : answer
            }
  }
}
