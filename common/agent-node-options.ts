/**
 * Node options every agent process is started with (process runtime and Kubernetes pods). V8's young generation
 * defaults to 64 MB semi-spaces on Node 24, which an idle agent keeps resident (about 100 MB); 16 MB (Node 20's
 * default) costs no measurable throughput (docs/benchmarks.md, agent memory).
 */
export const AGENT_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=16']
