/**
 * Node options every agent process is started with (process runtime and Kubernetes pods, where they go in
 * `NODE_OPTIONS`, so a pod's `spec.env` may replace them). V8's young generation defaults to 64 MB semi-spaces on
 * Node 24, which an idle agent keeps resident (about 100 MB); 16 MB (Node 20's default) costs no measurable throughput
 * (docs/benchmarks.md, agent memory).
 */
export const AGENT_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=16']

/**
 * V8 options every agent process is started with on its command line (Node refuses them in `NODE_OPTIONS`). By
 * default V8 collects garbage with helper threads beside the main one (parallel scavenges, concurrent marking and
 * sweeping): shorter pauses for more CPU in all, the threads' start and hand-offs. An agent shares its cores with
 * other agents and the API, and what limits a busy node is CPU, not an agent's pause: one collecting thread used
 * about 5 % less CPU per exchange (docs/benchmarks.md, "One garbage-collecting thread per agent").
 */
export const AGENT_V8_OPTIONS: readonly string[] = ['--single-threaded-gc']

/** Everything an agent's `node` command line carries before its entry point. */
export const AGENT_NODE_ARGUMENTS: readonly string[] = [...AGENT_NODE_OPTIONS, ...AGENT_V8_OPTIONS]

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
