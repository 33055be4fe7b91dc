/**
 * Keeps the agent alive when the pipes of its standard output and error lose their reader. The supervising API holds
 * their other ends: once it is gone (SIGKILL included), the next log line fails with EPIPE, which Node raises as an
 * uncaught error, and the agent died at once, in the middle of the graceful stop that the supervisor's end starts
 * (a message being processed was cut after its sender had been told to wait for it). The lines written then are
 * lost: nobody is left to read them.
 */
export function outliveClosedOutput(streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on('error', () => undefined)
}
