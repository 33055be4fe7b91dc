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

/** Lookups kept. Each is decided by the class and at most two more arguments (a property or name, a type). */
const REMEMBERED = [
  'getStrategy',
  'getExposedMetadatas',
  'getExcludedMetadatas',
  'findExcludeMetadata',
  'findExposeMetadata',
  'findExposeMetadataByCustomName',
  'findTypeMetadata',
  'getExposedProperties',
  'getExcludedProperties',
  'findTransformMetadatas',
] as const

/** What changes the answers: every decorator registration, and clear(). */
const CHANGES = ['addTypeMetadata', 'addTransformMetadata', 'addExposeMetadata', 'addExcludeMetadata', 'clear'] as const

type Lookup = (...args: unknown[]) => unknown
/** Per class: per lookup, then by its first and second argument (undefined where it takes fewer). */
type Answers = Map<string, Map<unknown, Map<unknown, unknown>>>

export function rememberTransformMetadata(storage: Storage = defaultMetadataStorage): void {
  if (storage[INSTALLED]) return
  storage[INSTALLED] = true

  // Nested maps keyed by the arguments themselves: a string key built per call cost more than the lookups it saved.
  let byClass = new WeakMap<object, Answers>()
  const methods = storage as unknown as Record<string, Lookup>
  for (const name of CHANGES) {
    const change = methods[name].bind(storage)
    methods[name] = (...args: unknown[]) => {
      byClass = new WeakMap()
      return change(...args)
    }
  }
  for (const name of REMEMBERED) {
    const lookUp = methods[name].bind(storage)
    methods[name] = (target: unknown, first?: unknown, second?: unknown) => {
      // Only classes are kept; anything else (undefined for a plain object's properties) asks every time.
      if (typeof target !== 'function') return lookUp(target, first, second)
      let answers = byClass.get(target)
      if (answers === undefined) byClass.set(target, (answers = new Map()))
      let byFirst = answers.get(name)
      if (byFirst === undefined) answers.set(name, (byFirst = new Map()))
      let bySecond = byFirst.get(first)
      if (bySecond === undefined) byFirst.set(first, (bySecond = new Map()))
      if (bySecond.has(second)) return bySecond.get(second)
      const answer = lookUp(target, first, second)
      bySecond.set(second, answer)
      return answer
    }
  }
}
