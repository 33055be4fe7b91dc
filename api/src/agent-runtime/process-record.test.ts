import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { processRecordPath, readProcessRecord, writeProcessRecord } from './process-record'

describe('the process record', () => {
  let dir: string

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'idplane-record-'))
  })

  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is replaced whole: the file holds the new pid and nothing is left beside it', () => {
    const file = processRecordPath(path.join(dir, 'agents'), 'org-1')
    writeProcessRecord(file, process.pid)
    writeFileSync(file, '{"pid": 4') // what a write cut off in place would leave
    expect(readProcessRecord(file)).toBeUndefined()
    writeProcessRecord(file, process.pid)
    expect(readProcessRecord(file)).toEqual({ pid: process.pid, startTime: expect.any(String) })
    expect(readdirSync(path.dirname(file))).toEqual(['org-1.pid.json'])
  })

  it('is never seen truncated by a reader while it is rewritten', () => {
    const file = processRecordPath(dir, 'org-2')
    writeProcessRecord(file, process.pid)
    // The write goes to a file of its own and is renamed over the record: between the two, the record is still whole.
    const fs = jest.requireActual<typeof import('node:fs')>('node:fs')
    const realRename = fs.renameSync
    let seenBeforeRename: unknown
    const spy = jest.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      seenBeforeRename = readProcessRecord(file)
      realRename(from, to)
    })
    try {
      writeProcessRecord(file, process.pid)
    } finally {
      spy.mockRestore()
    }
    expect(seenBeforeRename).toEqual({ pid: process.pid, startTime: expect.any(String) })
  })
})
