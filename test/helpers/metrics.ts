/** The label sets of one histogram's `_count` series in a Prometheus text exposition, in any label order. */
export function histogramLabelSets(exposition: string, metric: string): Record<string, string>[] {
  const prefix = `${metric}_count{`
  return exposition
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => [name, value])))
}
