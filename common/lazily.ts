/** `make`'s result, made at the first call and kept: for work a program may never need, kept out of its start. */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined
  return () => (made ??= { value: make() }).value
}
