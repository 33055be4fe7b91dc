/**
 * Asserts that `copy` is a deep copy of `original` with the same class at every depth: what parsing the same JSON
 * again would have produced. Paths in failure messages say where the two differ.
 */
export function expectSameShape(copy: unknown, original: unknown, path = '$'): void {
  if (original === null || typeof original !== 'object') {
    expect({ path, value: copy }).toEqual({ path, value: original })
    return
  }
  expect(copy).not.toBe(original)
  expect({ path, prototype: Object.getPrototypeOf(copy) as unknown }).toEqual({
    path,
    prototype: Object.getPrototypeOf(original) as unknown,
  })
  expect({ path, keys: Object.keys(copy as object) }).toEqual({ path, keys: Object.keys(original) })
  for (const key of Object.keys(original)) {
    expectSameShape(
      (copy as Record<string, unknown>)[key],
      (original as Record<string, unknown>)[key],
      `${path}.${key}`,
    )
  }
}
