import { BoundedMap } from '@idplane/common'

/**
 * The JSONPath library under PEX and Credo's presentation exchange parses its path string on every query: a new
 * generated parser and a run of its lexer and grammar for `$.credentialSubject.degree.type`, again for every field
 * of every input descriptor, every credential and every evaluation step. Presentation requests reuse a handful of
 * paths, and a path's syntax tree depends only on its text, so the tree is kept per text (bounded) and each query
 * gets its own copy (the library shifts the root off the array it is given). A path the grammar refuses is not kept:
 * it throws as before, every time. In the profile the parse was 0.6-0.9 % of an agent's busy time and 6-8 % of the
 * holder's allocations (docs/benchmarks.md, "Credo's key management checks built once").
 *
 * Installed once per process on the library's parser module, which its query functions read at each call. The
 * change belongs in the library (a parser kept per path).
 */
export function rememberJsonPathParses(parserModule: ParserModule = jsonPathParserModule()): void {
  if (parserModule[INSTALLED]) return
  const Original = parserModule.Parser
  if (typeof Original !== 'function') return
  parserModule[INSTALLED] = true
  const parsed = new BoundedMap<string, PathComponent[]>(MAX_PATHS)
  const parse = (path: string): PathComponent[] => {
    if (typeof path !== 'string') return new Original().parse(path)
    return copyOf(parsed.remembered(path, () => new Original().parse(path)))
  }
  // Called with `new` by the library; returning an object makes that object the result, as the original does.
  parserModule.Parser = function RememberingParser() {
    return { parse }
  } as unknown as ParserModule['Parser']
}

const INSTALLED = Symbol.for('idplane.jsonPathParseMemo')
/** Distinct paths kept; a deployment's presentation definitions use far fewer. */
const MAX_PATHS = 2000

/** One step of a parsed path: `{ expression: { type, value }, operation, scope }`, plain data only. */
type PathComponent = Record<string, unknown>

interface ParserModule {
  Parser: new () => { parse(path: unknown): PathComponent[] }
  [INSTALLED]?: true
}

/** A copy down to the leaves: the library's callers may change the array and its components. */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOf) as T
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) copy[key] = copyOf((value as Record<string, unknown>)[key])
  return copy as T
}

/** The parser module the library's `JSONPath` uses (one copy in this tree, shared by Credo and PEX). */
function jsonPathParserModule(): ParserModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is not in the package's index
  return require('@astronautlabs/jsonpath/dist/parser') as ParserModule
}
