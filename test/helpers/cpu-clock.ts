/**
 * A stopwatch of this process's CPU time, in ms since it was made. Tests that bound how long a hostile input takes
 * (a pattern that would backtrack for years) read this rather than the wall clock: on a loaded machine the wait for a
 * core inflates wall time without saying anything about the code.
 */
export function cpuClock(): () => number {
  const started = process.cpuUsage()
  return () => {
    const used = process.cpuUsage(started)
    return (used.user + used.system) / 1000
  }
}
