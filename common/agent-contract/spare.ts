/**
 * A spare agent process (docs/decisions.md, "A spare agent process ahead of need"): the process runtime starts one
 * before an organization needs it; it loads its modules, the larger part of a start, and then waits for one line on
 * its standard input, the agent's launch environment, written when an organization's agent is launched.
 */

/** "1" in a spare's environment: it takes its settings from its standard input, not from its environment. */
export const AGENT_SPARE_ENV = 'AGENT_SPARE'

/**
 * Embedded agents only: a folder of the agents' data directory in which a spare copies the PGlite template ahead of
 * need, into `<AGENT_SPARE_DIR>/<its pid>/`; it moves the copy beside its data directory when it is launched.
 */
export const AGENT_SPARE_DIR_ENV = 'AGENT_SPARE_DIR'

/** The longest launch line a spare reads: a launch environment is a few kilobytes. */
export const SPARE_LAUNCH_MAX_BYTES = 1024 * 1024

/** The line the process runtime writes to a spare: the launch environment as one JSON object of strings. */
export function spareLaunchLine(env: Readonly<Record<string, string>>): string {
  return `${JSON.stringify(env)}\n`
}

/**
 * The launch environment from a spare's line.
 * @throws Error when the line is not a JSON object of strings
 */
export function parseSpareLaunchLine(line: string): Record<string, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    // Not JSON.parse's message: it quotes the line, whose values are keys.
    throw new Error('The launch line is not valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('The launch line is not a JSON object')
  }
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`The launch line's ${name} is not a string`)
    env[name] = value
  }
  return env
}
