import { describeDatabaseError } from './database-error'

/**
 * JSON-lines logger shaped like Credo's Logger (`info(message, data?)`), so the agent can hand an adapter
 * of it to Credo. Keys that may carry secrets are redacted at any depth as a safety net.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

const REDACTED_KEYS = new Set(
  [
    'password',
    'secret',
    'token',
    'apikey',
    'walletkey',
    'authorization',
    'clientsecret',
    'refreshtoken',
    'accesstoken',
    'access_token',
    'refresh_token',
    'cookie',
    'privatekey',
    'seed',
  ].map((key) => key.toLowerCase()),
)

export interface LogSink {
  write(line: string): void
}

export class Logger {
  public constructor(
    private readonly bindings: Record<string, unknown> = {},
    private readonly minLevel: LogLevel = 'info',
    private readonly sink: LogSink = process.stdout,
  ) {}

  public child(bindings: Record<string, unknown>): Logger {
    return new Logger({ ...this.bindings, ...bindings }, this.minLevel, this.sink)
  }

  public isEnabled(level: LogLevel): boolean {
    return LEVEL_ORDER[level] >= LEVEL_ORDER[this.minLevel]
  }

  public debug(message: string, data?: Record<string, unknown>): void {
    this.log('debug', message, data)
  }

  public info(message: string, data?: Record<string, unknown>): void {
    this.log('info', message, data)
  }

  public warn(message: string, data?: Record<string, unknown>): void {
    this.log('warn', message, data)
  }

  public error(message: string, data?: Record<string, unknown>): void {
    this.log('error', message, data)
  }

  public log(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    if (!this.isEnabled(level)) return
    const entry = { time: new Date().toISOString(), level, msg: message, ...this.bindings, ...data }
    this.sink.write(JSON.stringify(redact(entry)) + '\n')
  }
}

/**
 * Returns a copy with secret-bearing keys replaced; errors become { name, message } (no stack in logs by default),
 * database errors { name, code, constraint, table } without the values their messages quote.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[depth]'
  if (value instanceof Error) {
    const databaseError = describeDatabaseError(value)
    if (databaseError) return databaseError
    return {
      name: value.name,
      message: value.message,
      ...(value.cause ? { cause: redact(value.cause, depth + 1) } : {}),
    }
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      out[key] = REDACTED_KEYS.has(key.toLowerCase()) ? '[redacted]' : redact(inner, depth + 1)
    }
    return out
  }
  return value
}

/** A logger that drops everything: for unit tests that do not assert on logs. */
export const silentLogger = new Logger({}, 'error', { write: () => undefined })

export function parseLogLevel(value: string | undefined): LogLevel {
  return value === 'debug' || value === 'warn' || value === 'error' ? value : 'info'
}
