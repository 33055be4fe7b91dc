import { EnvReader } from '@idplane/common'
import type { Config } from './config'

/**
 * A module's own settings (ApiModule.config): read from the same environment as the rest of the
 * configuration and validated with it at start-up, so infra/config.ts does not grow with every module.
 */
export interface ConfigSection<T = unknown> {
  /** Unique across modules: the section's key in `Config.sections`. */
  readonly name: string
  /**
   * Reads the section's variables. Bad values are reported with `env.problem(name, reason)`, never thrown,
   * so that one start-up message lists every bad variable. `core` is the configuration shared by all modules.
   */
  read(env: EnvReader, core: Config): T
}

/** Reads every section from `env`; a name declared twice is a programming error. */
export function readConfigSections(
  env: EnvReader,
  core: Config,
  sections: readonly ConfigSection[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const section of sections) {
    if (section.name in values) throw new Error(`Configuration section "${section.name}" is declared twice`)
    values[section.name] = section.read(env, core)
  }
  return values
}

/**
 * The section's value in a loaded configuration. A configuration built without the section (a test's literal
 * object) gets the section's defaults, as if none of its variables were set.
 */
export function sectionOf<T>(config: Config, section: ConfigSection<T>): T {
  const sections = config.sections ?? {}
  // The value under this name was produced by this section's own read() (readConfigSections).
  if (section.name in sections) return sections[section.name] as T
  return section.read(new EnvReader({}), config)
}
