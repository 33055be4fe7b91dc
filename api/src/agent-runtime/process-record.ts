import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
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

/**
 * Written beside the record and renamed over it: a reader (another replica, a restarted API) sees the old record or
 * the new one, never a truncated file, and an API killed while writing leaves the old one whole, not an empty file
 * that would lose track of a running agent.
 */
export function writeProcessRecord(file: string, pid: number): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const record: ProcessRecord = { pid, startTime: processStartTime(pid) }
  const written = `${file}.${process.pid}.tmp`
  writeFileSync(written, JSON.stringify(record), { mode: 0o600 })
  renameSync(written, file)
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

/**
 * `<agents data dir>/<orgId>.supervisor.json`: the API process that starts and restarts the organization's agent.
 * API replicas that share a data directory (the process runtime's two-replica setup) start an agent only while
 * they hold this note; the others watch it and take over when its holder is gone (docs/decisions.md, "One
 * supervisor per agent").
 */
export function supervisorRecordPath(dataDir: string, orgId: string): string {
  return path.join(dataDir, `${orgId}.supervisor.json`)
}

/** Pause before a new holder reads its note back (a takeover of a stale note may have raced with another). */
const CLAIM_SETTLE_MS = 50

/**
 * Makes this process the supervisor unless another live process is: the note is created exclusively, and a note
 * whose process is gone is taken over. Two takeovers at once may both remove the stale note and create their own:
 * each reads its note back after a moment, and the one it does not name gives way.
 * @returns whether this process holds the note now
 */
export async function claimSupervision(file: string): Promise<boolean> {
  const self: ProcessRecord = { pid: process.pid, startTime: processStartTime(process.pid) }
  for (let attempt = 0; attempt < 2; attempt++) {
    const holder = readProcessRecord(file)
    if (holder && isSelf(holder, self)) return true
    if (holder && isRecordedProcessAlive(holder)) return false
    if (holder) rmSync(file, { force: true })
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    try {
      writeFileSync(file, JSON.stringify(self), { mode: 0o600, flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    await new Promise((resolve) => setTimeout(resolve, CLAIM_SETTLE_MS))
    const after = readProcessRecord(file)
    return after !== undefined && isSelf(after, self)
  }
  return false
}

/** The live supervisor other than this process, if any. */
export function otherLiveSupervisor(file: string): ProcessRecord | undefined {
  const holder = readProcessRecord(file)
  return holder && holder.pid !== process.pid && isRecordedProcessAlive(holder) ? holder : undefined
}

/** Removes the note, whoever holds it: the agent is stopped for good. */
export function removeSupervision(file: string): void {
  rmSync(file, { force: true })
}

/** Removes the note if it names this process (another's is left alone). */
export function releaseSupervision(file: string): void {
  const holder = readProcessRecord(file)
  if (holder?.pid === process.pid) rmSync(file, { force: true })
}

function isSelf(record: ProcessRecord, self: ProcessRecord): boolean {
  return record.pid === self.pid && (record.startTime === undefined || record.startTime === self.startTime)
}
