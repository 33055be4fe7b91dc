import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The process runtime's note of a running agent, `<agents data dir>/<orgId>.pid.json`: its pid and the
 * kernel's start time of that pid, so that a restarted API finds an agent that outlived it and never mistakes
 * a recycled pid for it. A file on the host, not a database row: a pid means something on one host only.
 */
export interface ProcessRecord {
  pid: number
  /** /proc/<pid>/stat field 22 (clock ticks since boot); undefined where /proc does not exist. */
  startTime?: string
}

export function processRecordPath(dataDir: string, orgId: string): string {
  return path.join(dataDir, `${orgId}.pid.json`)
}

export function writeProcessRecord(file: string, pid: number): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const record: ProcessRecord = { pid, startTime: processStartTime(pid) }
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 })
}

export function readProcessRecord(file: string): ProcessRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProcessRecord>
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 1) return undefined
    return { pid: value.pid, startTime: typeof value.startTime === 'string' ? value.startTime : undefined }
  } catch {
    return undefined
  }
}

export function removeProcessRecord(file: string): void {
  rmSync(file, { force: true })
}

/** Whether the recorded process still runs: the pid exists and, where /proc tells, started at the same time. */
export function isRecordedProcessAlive(record: ProcessRecord): boolean {
  try {
    process.kill(record.pid, 0)
  } catch {
    // ESRCH: gone. EPERM: a process of another user holds the pid now, so it is not our agent.
    return false
  }
  if (record.startTime === undefined) return true
  return processStartTime(record.pid) === record.startTime
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count after its ')'. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19]
  } catch {
    return undefined
  }
}
