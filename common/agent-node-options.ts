/**
 * Node options every agent process is started with (process runtime and Kubernetes pods). V8's young generation
 * defaults to 64 MB semi-spaces on Node 24, which an idle agent keeps resident (about 100 MB); 16 MB (Node 20's
 * default) costs no measurable throughput (docs/benchmarks.md, agent memory).
 */
export const AGENT_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=16']

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
