import type { IncomingMessage } from 'node:http'
import { Transform, type Readable, type TransformCallback } from 'node:stream'
import busboy from 'busboy'
import { CsvError, parse } from 'csv-parse'
import { HttpError } from 'routing-controllers'
import { InvalidInputError, type FieldError } from '@idplane/common'
import { isFormulaCell } from './csv-template'

export interface UploadLimits {
  maxFileBytes: number
  maxRows: number
}

/** One data record of the file; `rowNumber` counts as a spreadsheet does (header row 1, first data row 2). */
export interface CsvRecord {
  rowNumber: number
  cells: string[]
}

export interface CsvUpload {
  /** The `fileName` field, else the file part's own name; undefined when neither was sent. */
  fileName?: string
  header: string[]
  records: CsvRecord[]
}

/** 413: the file is larger than BULK_MAX_FILE_BYTES; the rest of the request is not read. */
export class FileTooLargeError extends HttpError {
  public constructor(maxBytes: number) {
    super(413, `The file is larger than ${maxBytes} bytes (BULK_MAX_FILE_BYTES)`)
    this.name = 'FileTooLargeError'
    // HttpError's constructor resets the prototype to its own.
    Object.setPrototypeOf(this, FileTooLargeError.prototype)
  }
}

/** Formula cells listed in one answer (the count is exact). */
const FORMULAS_LISTED = 50
/** A single record larger than this is not a CSV row of recipients (a quote left open swallows the file). */
const MAX_RECORD_BYTES = 1024 * 1024

/**
 * Reads a multipart/form-data upload (`file`, optional `fileName`) and parses the file as CSV while it arrives:
 * UTF-8 only (binary data refused), BOM dropped, CRLF or LF, RFC 4180 quotes. Stops reading at the first limit
 * crossed: BULK_MAX_FILE_BYTES → 413, BULK_MAX_ROWS → 400. Cells a spreadsheet would run as formulas → 400
 * naming each row and column. Nothing is kept of a refused file.
 * @throws InvalidInputError (400) or FileTooLargeError (413)
 */
export function readCsvUpload(req: IncomingMessage, limits: UploadLimits): Promise<CsvUpload> {
  return new Promise<CsvUpload>((resolve, reject) => {
    let parser: ReturnType<typeof busboy>
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: limits.maxFileBytes, fields: 5, fieldSize: 1024, parts: 10, headerPairs: 20 },
      })
    } catch {
      reject(new InvalidInputError('The upload must be multipart/form-data with a CSV file in the field "file"'))
      return
    }
    let isSettled = false
    const fields: Record<string, string> = {}
    let partFileName: string | undefined
    let parsing: Promise<Omit<CsvUpload, 'fileName'>> | undefined
    const fail = (error: unknown) => {
      if (isSettled) return
      isSettled = true
      // Stop reading: the caller answers and closes the connection (a 2 GB upload is not drained).
      req.unpipe(parser)
      req.pause()
      reject(error)
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated)
        fail(new InvalidInputError(`The field ${name.slice(0, 50)} is too long`))
      else fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || parsing) {
        stream.resume()
        fail(
          new InvalidInputError('Send one CSV file, in the field "file"', [
            { field: name.slice(0, 50), message: 'is not expected' },
          ]),
        )
        return
      }
      partFileName = info.filename
      // Stop reading the request at once: busboy discards the rest of a file past its limit, as fast as it comes.
      stream.on('limit', () => fail(new FileTooLargeError(limits.maxFileBytes)))
      parsing = parseCsv(stream, limits)
      parsing.catch(fail)
    })
    parser.on('filesLimit', () => fail(new InvalidInputError('Send one CSV file, in the field "file"')))
    parser.on('partsLimit', () => fail(new InvalidInputError('Too many parts in the upload')))
    parser.on('fieldsLimit', () => fail(new InvalidInputError('Too many fields in the upload')))
    parser.on('error', () => fail(new InvalidInputError('The multipart/form-data body is malformed')))
    parser.on('close', () => {
      if (!parsing) {
        fail(new InvalidInputError('The CSV file is missing', [{ field: 'file', message: 'is required' }]))
        return
      }
      parsing.then((parsed) => {
        if (isSettled) return
        isSettled = true
        const fileName = (fields.fileName ?? partFileName)?.trim()
        resolve({ ...parsed, ...(fileName ? { fileName } : {}) })
      }, fail)
    })
    req.on('error', () => fail(new InvalidInputError('The upload was interrupted')))
    req.on('aborted', () => fail(new InvalidInputError('The upload was interrupted')))
    req.pipe(parser)
  })
}

/** Refuses bytes that are not UTF-8 text (NUL, invalid sequences) while passing the chunks on unchanged. */
class Utf8TextGuard extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true })

  public override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const text = this.decoder.decode(chunk, { stream: true })
      if (text.includes('\u0000')) throw new Error('NUL')
    } catch {
      callback(binaryFile())
      return
    }
    callback(null, chunk)
  }

  public override _flush(callback: TransformCallback): void {
    try {
      this.decoder.decode()
      callback()
    } catch {
      callback(binaryFile())
    }
  }
}

function binaryFile(): InvalidInputError {
  return new InvalidInputError('The file is not UTF-8 text (binary data); send a CSV file', [
    { field: 'file', message: 'must be UTF-8 CSV text' },
  ])
}

/** Parses the file stream record by record, enforcing the limits as it goes. */
export async function parseCsv(
  file: Readable & { truncated?: boolean },
  limits: UploadLimits,
): Promise<Omit<CsvUpload, 'fileName'>> {
  const guard = new Utf8TextGuard()
  const csv = parse({
    bom: true,
    // Either line ending, even mixed in one file (files assembled from several sources).
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
  })
  let tooLarge = false
  file.on('limit', () => {
    tooLarge = true
    const error = new FileTooLargeError(limits.maxFileBytes)
    guard.destroy(error)
  })
  file.on('error', (error) => guard.destroy(error))
  guard.on('error', (error) => csv.destroy(error))
  file.pipe(guard).pipe(csv)
  let header: string[] | undefined
  const records: CsvRecord[] = []
  const formulas: FieldError[] = []
  let formulaCount = 0
  let rowNumber = 0
  try {
    for await (const record of csv as AsyncIterable<string[]>) {
      rowNumber += 1
      if (!header) {
        header = record
        continue
      }
      if (record.every((cell) => cell.trim().length === 0)) continue
      if (records.length >= limits.maxRows) {
        throw new InvalidInputError(`The file has more than ${limits.maxRows} rows (BULK_MAX_ROWS)`, [
          { field: 'file', message: `must have at most ${limits.maxRows} data rows` },
        ])
      }
      record.forEach((cell, index) => {
        if (!isFormulaCell(cell)) return
        formulaCount += 1
        if (formulas.length < FORMULAS_LISTED) {
          formulas.push({
            field: `row ${rowNumber}, column ${(header?.[index] ?? `#${index + 1}`).slice(0, 100)}`,
            message: 'starts with = + - @ tab or CR: a spreadsheet would run it as a formula',
          })
        }
      })
      records.push({ rowNumber, cells: record })
    }
  } catch (error) {
    file.unpipe(guard)
    file.resume()
    if (tooLarge) throw new FileTooLargeError(limits.maxFileBytes)
    if (error instanceof CsvError) {
      throw new InvalidInputError(`The file is not valid CSV: ${error.message.slice(0, 200)}`, [
        { field: 'file', message: error.code },
      ])
    }
    throw error
  }
  if (tooLarge || file.truncated) throw new FileTooLargeError(limits.maxFileBytes)
  if (!header || header.every((cell) => cell.trim().length === 0)) {
    throw new InvalidInputError('The file is empty: it needs the template header line', [
      { field: 'file', message: 'has no header' },
    ])
  }
  if (formulaCount > 0) {
    throw new InvalidInputError(
      `${formulaCount} cell(s) would run as spreadsheet formulas; remove the leading = + - @ (or prefix the cell with ')`,
      formulas,
    )
  }
  return { header, records }
}
