import path from 'node:path'
import type { ConfigSection } from '../../infra/config-section'

export interface ConsoleConfig {
  /** CONSOLE_ENABLED: serve the web console at /console and send browsers following short links there. */
  enabled: boolean
  /** CONSOLE_DIR: the built console (index.html and assets/), as `make build` writes it. */
  dir: string
}

/** @default true */
export const DEFAULT_CONSOLE_ENABLED = true
/** @default ./dist/console, relative to the working directory like DATA_DIR (the image's /app/dist/console). */
export const DEFAULT_CONSOLE_DIR = './dist/console'

export const consoleConfig: ConfigSection<ConsoleConfig> = {
  name: 'console',
  read: (env) => ({
    enabled: env.bool('CONSOLE_ENABLED', DEFAULT_CONSOLE_ENABLED),
    dir: path.resolve(env.string('CONSOLE_DIR', DEFAULT_CONSOLE_DIR)),
  }),
}
