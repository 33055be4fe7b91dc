/**
 * The exports of one of our compiled CommonJS modules as `import()` resolved them: Node shows `module.exports` under
 * `default`, jest (whose transform turns import() into require()) shows them directly. `name` is an export the module
 * is known to have. Used where a program loads a large part only when it is needed.
 */
export function compiledExports<T extends object>(loaded: T, name: keyof T): T {
  return name in loaded ? loaded : (loaded as unknown as { default: T }).default
}
