import { LogLevel, type Logger as CredoLoggerContract } from '@credo-ts/core'
import type { Logger, LogLevel as IdplaneLogLevel } from '@idplane/common'

const TO_CREDO: Record<IdplaneLogLevel, LogLevel> = {
  debug: LogLevel.debug,
  info: LogLevel.info,
  warn: LogLevel.warn,
  error: LogLevel.error,
}

/**
 * Hands our JSON-lines logger to Credo (STYLE.md, logging) so the agent's own lines and Credo's look alike.
 * Credo logs very chatty `info` lines for every message; they are demoted to debug.
 */
export class CredoLogger implements CredoLoggerContract {
  public readonly logLevel: LogLevel

  public constructor(
    private readonly logger: Logger,
    level: IdplaneLogLevel,
  ) {
    this.logLevel = TO_CREDO[level]
  }

  public test(): void {}

  public trace(): void {}

  public debug(message: string, data?: Record<string, unknown>): void {
    this.logger.debug(message, toData(data))
  }

  public info(message: string, data?: Record<string, unknown>): void {
    this.logger.debug(message, toData(data))
  }

  public warn(message: string, data?: Record<string, unknown>): void {
    this.logger.warn(message, toData(data))
  }

  public error(message: string, data?: Record<string, unknown>): void {
    this.logger.error(message, toData(data))
  }

  public fatal(message: string, data?: Record<string, unknown>): void {
    this.logger.error(message, toData(data))
  }
}

/** Credo passes class instances (records, messages) as data; only their error-ness matters in a log line. */
function toData(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data) return undefined
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    out[key] = value instanceof Error ? value : typeof value === 'object' && value !== null ? '[object]' : value
  }
  return out
}
