import { BoundedMap } from '@idplane/common'

import { cloneInstance } from './clone-instance'

/**
 * Replaces a getter of a Credo class with one that keeps its answer per key, the last `kept` ones read, and gives
 * each read a copy (cloneInstance: the answers are class instances, and callers change them). `keyOf` names
 * everything the answer depends on, or gives undefined to leave that read to Credo's getter (an input too large to
 * keep, or not of the kind kept). An answer that throws is not kept: Credo's getter throws every time, as before.
 * Throws at once when the property is no getter, so a Credo upgrade that moves it fails at start instead of quietly
 * losing the memo. For getters whose answer is a pure function of the key: the memos' own files say why theirs are.
 */
export function rememberGetter<R extends object>(
  prototype: R,
  property: keyof R & string,
  kept: number,
  keyOf: (record: R) => string | undefined,
): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, property)
  const read = descriptor?.get
  if (!descriptor || !read) throw new Error(`${prototype.constructor.name}.${property} is no getter (Credo changed)`)
  const answers = new BoundedMap<string, unknown>(kept)
  Object.defineProperty(prototype, property, {
    ...descriptor,
    get(this: R): unknown {
      const key = keyOf(this)
      if (key === undefined) return read.call(this)
      return cloneInstance(answers.remembered(key, () => read.call(this)))
    },
  })
}
