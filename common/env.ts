import { ConfigError } from './errors'

/**
 * Small helpers each program's config.ts builds on. Every reader records its problem instead of throwing,
 * so that start-up reports every bad variable at once, by name and reason, never by value.
 */
export class EnvReader {
  private readonly problems: string[] = []

  public constructor(private readonly source: Record<string, string | undefined>) {}

  public string(name: string, fallback: string): string
  public string(name: string): string | undefined
  public string(name: string, fallback?: string): string | undefined {
    const raw = this.source[name]
    return raw === undefined || raw === '' ? fallback : raw
  }

  public required(name: string): string {
    const value = this.string(name)
    if (value === undefined) {
      this.problems.push(`${name}: is required`)
      return ''
    }
    return value
  }

  public int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
      this.problems.push(`${name}: must be a whole number`)
      return fallback
    }
    if (bounds.min !== undefined && value < bounds.min) this.problems.push(`${name}: must be at least ${bounds.min}`)
    if (bounds.max !== undefined && value > bounds.max) this.problems.push(`${name}: must be at most ${bounds.max}`)
    return value
  }

  public bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    const normalized = raw.trim().toLowerCase()
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true
    if (['false', '0', 'no', 'off'].includes(normalized)) return false
    this.problems.push(`${name}: must be true or false`)
    return fallback
  }

  public oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    if ((allowed as readonly string[]).includes(raw)) return raw as T
    this.problems.push(`${name}: must be one of ${allowed.join(', ')}`)
    return fallback
  }

  /** A URL whose protocol is one of `protocols`; the value is never echoed (it may hold a password). */
  public url(name: string, protocols: readonly string[]): string | undefined {
    const raw = this.string(name)
    if (raw === undefined) return undefined
    try {
      const parsed = new URL(raw)
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        this.problems.push(`${name}: must be a URL with protocol ${protocols.join(' or ')}`)
      }
    } catch {
      this.problems.push(`${name}: must be a valid URL`)
    }
    return raw
  }

  /** Records a problem found by a caller-specific check. */
  public problem(name: string, reason: string): void {
    this.problems.push(`${name}: ${reason}`)
  }

  /** Throws one ConfigError listing every problem, one per line. */
  public assertValid(program: string): void {
    if (this.problems.length > 0) {
      throw new ConfigError(`Invalid ${program} configuration:\n  ${this.problems.join('\n  ')}`)
    }
  }
}
