import type { IncomingMessage } from 'node:http'
import { PassThrough, Readable } from 'node:stream'
import { InvalidInputError } from '@idplane/common'
import { FileTooLargeError, parseCsv, readCsvUpload } from './csv-upload'

const LIMITS = { maxFileBytes: 1024 * 1024, maxRows: 100 }
const BOUNDARY = 'test-boundary-1234'

function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`
    const type = part.filename ? 'Content-Type: text/csv\r\n' : ''
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`))
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(chunks)
}

function requestOf(
  body: Buffer | Readable,
  contentType = `multipart/form-data; boundary=${BOUNDARY}`,
): IncomingMessage {
  const stream = new PassThrough()
  if (Buffer.isBuffer(body)) stream.end(body)
  else body.pipe(stream)
  return Object.assign(stream, { headers: { 'content-type': contentType } }) as unknown as IncomingMessage
}

const parse = (text: string | Buffer, limits = LIMITS) => parseCsv(Readable.from([Buffer.from(text)]), limits)

describe('parseCsv', () => {
  it('drops a UTF-8 BOM, reads CRLF and LF lines, quoted commas, quotes and line breaks', async () => {
    const parsed = await parse('\uFEFFemail,name\r\na@x.io,"Doe, ""Jo"""\nb@x.io,"two\r\nlines"\r\nc@x.io,Zoë\r\n')
    expect(parsed.header).toEqual(['email', 'name'])
    expect(parsed.records).toEqual([
      { rowNumber: 2, cells: ['a@x.io', 'Doe, "Jo"'] },
      { rowNumber: 3, cells: ['b@x.io', 'two\r\nlines'] },
      { rowNumber: 4, cells: ['c@x.io', 'Zoë'] },
    ])
  })

  it('skips blank lines but keeps counting rows as a spreadsheet does', async () => {
    const parsed = await parse('email\n\na@x.io\n,\nb@x.io\n')
    expect(parsed.records.map((record) => record.rowNumber)).toEqual([3, 5])
  })

  it('refuses an unterminated quote with a 400', async () => {
    await expect(parse('email,name\na@x.io,"open\n')).rejects.toThrow(/not valid CSV.*Quote Not Closed/i)
  })

  it('refuses binary data: NUL bytes and invalid UTF-8', async () => {
    await expect(parse(Buffer.from([0x65, 0x6d, 0x00, 0x0a]))).rejects.toThrow(/not UTF-8 text/)
    await expect(parse(Buffer.from([0x65, 0xff, 0xfe, 0x0a]))).rejects.toThrow(/not UTF-8 text/)
    // A multi-byte character split across two chunks is still text.
    const zoe = Buffer.from('email\nZoë@x.io\n')
    const split = zoe.indexOf(0xc3) + 1
    const parsed = await parseCsv(Readable.from([zoe.subarray(0, split), zoe.subarray(split)]), LIMITS)
    expect(parsed.records[0].cells).toEqual(['Zoë@x.io'])
  })

  it('refuses formula cells, naming the row and column of each', async () => {
    const error = await parse('email,name\na@x.io,=1+1\n@b,ok\nc@x.io,-3\n').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as InvalidInputError).fields).toEqual([
      { field: 'row 2, column name', message: expect.stringMatching(/formula/) },
      { field: 'row 3, column email', message: expect.stringMatching(/formula/) },
    ])
  })

  it('stops at the row limit with a 400', async () => {
    const rows = Array.from({ length: 11 }, (_, index) => `r${index}@x.io`).join('\n')
    await expect(parse(`email\n${rows}\n`, { ...LIMITS, maxRows: 10 })).rejects.toThrow(/more than 10 rows/)
    await expect(parse(`email\n${rows}\n`, { ...LIMITS, maxRows: 11 })).resolves.toHaveProperty('records.length', 11)
  })

  it('refuses an empty file', async () => {
    await expect(parse('')).rejects.toThrow(/empty/)
  })
})

describe('readCsvUpload', () => {
  it('reads the file part and the fileName field in either order', async () => {
    const body = multipart([
      { name: 'file', value: 'email\na@x.io\n', filename: 'part.csv' },
      { name: 'fileName', value: 'chosen.csv' },
    ])
    const upload = await readCsvUpload(requestOf(body), LIMITS)
    expect(upload).toEqual({
      fileName: 'chosen.csv',
      header: ['email'],
      records: [{ rowNumber: 2, cells: ['a@x.io'] }],
    })
    const partNamed = await readCsvUpload(
      requestOf(multipart([{ name: 'file', value: 'email\n', filename: 'part.csv' }])),
      LIMITS,
    )
    expect(partNamed.fileName).toBe('part.csv')
  })

  it('answers 400 for a body that is not multipart, or without the file', async () => {
    await expect(readCsvUpload(requestOf(Buffer.from('{}'), 'application/json'), LIMITS)).rejects.toThrow(/multipart/)
    await expect(readCsvUpload(requestOf(multipart([{ name: 'fileName', value: 'x' }])), LIMITS)).rejects.toThrow(
      /missing/,
    )
    await expect(
      readCsvUpload(requestOf(multipart([{ name: 'other', value: 'email\n', filename: 'x.csv' }])), LIMITS),
    ).rejects.toThrow(/field "file"/)
  })

  it('cuts an endless upload off at the size limit with a 413, having read little more than the limit', async () => {
    let produced = 0
    const endless = new Readable({
      read() {
        if (produced === 0)
          this.push(
            Buffer.from(
              `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\nemail\n`,
            ),
          )
        produced += 64 * 1024
        this.push(Buffer.from('a@x.io\n'.repeat(9362)))
      },
    })
    const started = Date.now()
    await expect(
      readCsvUpload(requestOf(endless), { maxFileBytes: 256 * 1024, maxRows: 1_000_000 }),
    ).rejects.toBeInstanceOf(FileTooLargeError)
    expect(produced).toBeLessThan(4 * 1024 * 1024)
    expect(Date.now() - started).toBeLessThan(2_000)
    endless.destroy()
  })
})
