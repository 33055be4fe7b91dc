import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises'
import path from 'node:path'
import { ConflictError, Logger } from '@idplane/common'
import { isTemporaryFile, syncDirectory, writeFileAtomic } from './atomic-write'
import { QueueMessage } from './queue'
import { deadLetterQueueName } from './retry-policy'

/** What one message file holds: the message plus when it may be delivered next. */
export interface StoredMessage extends QueueMessage {
  /** Epoch milliseconds; a retry sets it to now + the retry delay. */
  availableAt: number
  publishedAt: string
}

/** A pending message and the name of its file (which also orders messages: time, then sequence). */
export interface StoredEntry {
  file: string
  message: StoredMessage
}

/** Lock files held by this process: a second instance here must not take over a live one. */
const heldLocks = new Set<string>()

/**
 * The in-process queue's storage: one JSON file per pending message under `<root>/<queue>/`, dead letters
 * under `<root>/<queue>.dead/`. Every write is atomic (see writeFileAtomic), so a crash leaves whole files.
 */
export class FileMessageStore {
  private sequence = 0
  /** Queue directories made by this process: a message write costs no mkdir once its directory exists. */
  private readonly madeDirs = new Set<string>()
  private hasLock = false

  public constructor(
    private readonly root: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes `<root>/.lock` (our pid inside) so that two queues never deliver from one directory. A lock left
   * by a process that is gone, or by an earlier run that had our pid (pid 1 in a container), is taken over.
   * @throws ConflictError when a live process or another instance in this process holds it
   */
  public async lock(): Promise<void> {
    await mkdir(this.root, { recursive: true })
    const lockFile = this.lockFile()
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(lockFile, 'wx')
        await handle.writeFile(String(process.pid))
        await handle.close()
        heldLocks.add(lockFile)
        this.hasLock = true
        return
      } catch (error) {
        if (!hasCode(error, 'EEXIST')) throw error
        const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''))
        const isLive =
          holder === process.pid ? heldLocks.has(lockFile) : Number.isInteger(holder) && holder > 0 && isAlive(holder)
        if (isLive)
          throw new ConflictError(
            `Queue directory ${this.root} is in use by process ${holder}; stop it or set DATA_DIR`,
          )
        await rm(lockFile, { force: true })
      }
    }
    throw new ConflictError(`Could not lock queue directory ${this.root}`)
  }

  public async unlock(): Promise<void> {
    if (!this.hasLock) return
    this.hasLock = false
    heldLocks.delete(this.lockFile())
    await rm(this.lockFile(), { force: true })
  }

  /** A file name that sorts after every earlier one written by this process. */
  public nextFileName(): string {
    this.sequence = (this.sequence + 1) % 1_000_000
    return `${String(Date.now()).padStart(15, '0')}-${String(this.sequence).padStart(6, '0')}-${process.pid}.json`
  }

  public async write(entry: StoredEntry): Promise<void> {
    const dir = this.dir(entry.message.queue)
    const file = path.join(dir, entry.file)
    const data = JSON.stringify(entry.message)
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true })
      this.madeDirs.add(dir)
    }
    try {
      await writeFileAtomic(file, data)
    } catch (error) {
      if (!isNotFound(error)) throw error
      // The directory was removed under us: make it again.
      await mkdir(dir, { recursive: true })
      await writeFileAtomic(file, data)
    }
  }

  /** Removes an acknowledged message's file (one unlink; gone already is fine). */
  public async remove(entry: StoredEntry): Promise<void> {
    try {
      await unlink(path.join(this.dir(entry.message.queue), entry.file))
    } catch (error) {
      if (!isNotFound(error)) throw error
    }
  }

  /** Rewrites the message with its dead-letter headers, then moves it (one rename) to `<queue>.dead/`. */
  public async moveToDead(entry: StoredEntry): Promise<void> {
    const dead = this.dir(deadLetterQueueName(entry.message.queue))
    await mkdir(dead, { recursive: true })
    await this.write(entry)
    await rename(path.join(this.dir(entry.message.queue), entry.file), path.join(dead, entry.file))
    await syncDirectory(dead)
  }

  /** Every pending message of every queue, oldest first per queue; removes torn temporary files. */
  public async loadPending(): Promise<Map<string, StoredEntry[]>> {
    await mkdir(this.root, { recursive: true })
    const pending = new Map<string, StoredEntry[]>()
    for (const dirent of await readdir(this.root, { withFileTypes: true })) {
      if (!dirent.isDirectory() || dirent.name.endsWith('.dead')) continue
      pending.set(dirent.name, await this.readQueue(dirent.name, Number.POSITIVE_INFINITY))
    }
    return pending
  }

  /** Reads up to `limit` messages of one queue directory, oldest first. */
  public async readQueue(queue: string, limit: number): Promise<StoredEntry[]> {
    const dir = this.dir(queue)
    let names: string[]
    try {
      names = (await readdir(dir)).sort()
    } catch (error) {
      if (isNotFound(error)) return []
      throw error
    }
    const entries: StoredEntry[] = []
    for (const name of names) {
      if (entries.length >= limit) break
      if (isTemporaryFile(name)) {
        await rm(path.join(dir, name), { force: true })
        continue
      }
      if (!name.endsWith('.json')) continue
      const entry = await this.readEntry(dir, name)
      if (entry) entries.push(entry)
    }
    return entries
  }

  private async readEntry(dir: string, file: string): Promise<StoredEntry | undefined> {
    try {
      const message = parseStoredMessage(JSON.parse(await readFile(path.join(dir, file), 'utf8')))
      if (message) return { file, message }
    } catch (error) {
      if (isNotFound(error)) return undefined
    }
    // Never written by this code (writes are atomic): keep it for a human, out of the delivery path.
    this.logger.error('Skipped unreadable queue message file', { file: path.join(dir, file) })
    await rename(path.join(dir, file), path.join(dir, `${file}.unreadable`)).catch(() => undefined)
    return undefined
  }

  private lockFile(): string {
    return path.join(this.root, '.lock')
  }

  private dir(queue: string): string {
    return path.join(this.root, queue)
  }
}

function parseStoredMessage(value: unknown): StoredMessage | undefined {
  if (!value || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  const { id, queue, attempt, headers, availableAt, publishedAt } = record
  if (typeof id !== 'string' || typeof queue !== 'string' || typeof publishedAt !== 'string') return undefined
  if (typeof attempt !== 'number' || typeof availableAt !== 'number') return undefined
  if (!headers || typeof headers !== 'object') return undefined
  const stringHeaders = Object.fromEntries(
    Object.entries(headers).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  )
  return { id, queue, payload: record.payload, attempt, headers: stringHeaders, availableAt, publishedAt }
}

function isNotFound(error: unknown): boolean {
  return hasCode(error, 'ENOENT')
}

/** Duck-typed: fs errors may come from another realm (jest), where `instanceof Error` fails. */
function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return hasCode(error, 'EPERM')
  }
}
