import { enableCompileCache } from 'node:module'

/*
 * Imported first by each program's entry point, so every module loaded after it goes through V8's code cache on disk:
 * an agent loads Credo's whole module graph at each start, and with the cache warm its start on PostgreSQL takes about
 * an eighth less CPU, the API's a sixteenth (docs/benchmarks.md, "Program start"; PGlite's WASM is not cached). Node picks the directory: NODE_COMPILE_CACHE when set, else
 * <tmpdir>/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be written (a
 * read-only filesystem) only means no cache: enableCompileCache reports that and does not throw.
 */
enableCompileCache()
