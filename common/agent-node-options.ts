/**
 * Node options every agent process is started with (process runtime and Kubernetes pods). V8's young generation
 * defaults to 64 MB semi-spaces on Node 24, which an idle agent keeps resident (about 100 MB); 16 MB (Node 20's
 * default) costs no measurable throughput (docs/benchmarks.md, agent memory).
 */
export const AGENT_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=16']

/**
 * V8 options every agent process is started with, on its command line: NODE_OPTIONS refuses them, and V8 reads its
 * tiering options only at start (set later, TurboFan still compiles). `--max-opt=2` stops V8's tiers at Maglev: an
 * agent's work comes in bursts of exchanges, and TurboFan's compilations in each burst cost more than its faster code
 * gives back there; over long runs the two are even (docs/benchmarks.md, "V8's tiers stopped at Maglev").
 */
export const AGENT_V8_OPTIONS: readonly string[] = ['--max-opt=2']

/** Both, for an agent process started by us with `node <options> <program>` (process runtime, benchmarks). */
export const AGENT_COMMAND_LINE_OPTIONS: readonly string[] = [...AGENT_NODE_OPTIONS, ...AGENT_V8_OPTIONS]

/**
 * glibc malloc settings every agent process is started with (process runtime and Kubernetes pods). With glibc's
 * defaults an agent on PGlite kept ~60 MB of freed native memory resident after a burst of exchanges: one arena per
 * thread, and a mmap/trim threshold that grows to 32 MB once a large buffer is freed, so later large buffers stay
 * in the heap. Two arenas and fixed 128 KiB thresholds (large buffers are mapped and unmapped, freed tops trimmed)
 * give it back and cost no measurable CPU per exchange (docs/benchmarks.md, agent memory). A pod's `spec.env` may
 * replace them.
 */
export const AGENT_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
}
