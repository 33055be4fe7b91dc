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

/** Lookups kept, by how many arguments decide their answers (the class first). */
const BY_CLASS = ['getStrategy', 'getExposedMetadatas', 'getExcludedMetadatas'] as const
const BY_CLASS_AND_ONE = [
  'findExcludeMetadata',
  'findExposeMetadata',
  'findExposeMetadataByCustomName',
  'findTypeMetadata',
  'getExposedProperties',
  'getExcludedProperties',
] as const
const BY_CLASS_AND_TWO = ['findTransformMetadatas'] as const

/** What changes the answers: every decorator registration, and clear(). */
const CHANGES = ['addTypeMetadata', 'addTransformMetadata', 'addExposeMetadata', 'addExcludeMetadata', 'clear'] as const

type Lookup = (...args: unknown[]) => unknown

export function rememberTransformMetadata(storage: Storage = defaultMetadataStorage): void {
  if (storage[INSTALLED]) return
  storage[INSTALLED] = true

  // Bumped by every change; each lookup's answers are dropped when they are of an older generation. The wrappers
  // take fixed arguments and key nested maps by them: no key is built per call (a string key cost more than the
  // lookups it saved).
  let generation = 0
  const methods = storage as unknown as Record<string, Lookup>
  for (const name of CHANGES) {
    const change = methods[name].bind(storage)
    methods[name] = (...args: unknown[]) => {
      generation++
      return change(...args)
    }
  }
  const kept = () => {
    let answers = new WeakMap<object, unknown>()
    let of = generation
    return (): WeakMap<object, unknown> => {
      if (of !== generation) [answers, of] = [new WeakMap(), generation]
      return answers
    }
  }
  for (const name of BY_CLASS) {
    const lookUp = methods[name].bind(storage)
    const answers = kept()
    methods[name] = (target: unknown) => {
      // Only classes are kept; anything else (undefined for a plain object's properties) asks every time.
      if (typeof target !== 'function') return lookUp(target)
      const byClass = answers()
      if (byClass.has(target)) return byClass.get(target)
      const answer = lookUp(target)
      byClass.set(target, answer)
      return answer
    }
  }
  for (const name of BY_CLASS_AND_ONE) {
    const lookUp = methods[name].bind(storage)
    const answers = kept()
    methods[name] = (target: unknown, first: unknown) => {
      if (typeof target !== 'function') return lookUp(target, first)
      const byClass = answers()
      let byFirst = byClass.get(target) as Map<unknown, unknown> | undefined
      if (byFirst === undefined) byClass.set(target, (byFirst = new Map()))
      if (byFirst.has(first)) return byFirst.get(first)
      const answer = lookUp(target, first)
      byFirst.set(first, answer)
      return answer
    }
  }
  for (const name of BY_CLASS_AND_TWO) {
    const lookUp = methods[name].bind(storage)
    const answers = kept()
    methods[name] = (target: unknown, first: unknown, second: unknown) => {
      if (typeof target !== 'function') return lookUp(target, first, second)
      const byClass = answers()
      let byFirst = byClass.get(target) as Map<unknown, Map<unknown, unknown>> | undefined
      if (byFirst === undefined) byClass.set(target, (byFirst = new Map()))
      let bySecond = byFirst.get(first)
      if (bySecond === undefined) byFirst.set(first, (bySecond = new Map()))
      if (bySecond.has(second)) return bySecond.get(second)
      const answer = lookUp(target, first, second)
      bySecond.set(second, answer)
      return answer
    }
  }
}
