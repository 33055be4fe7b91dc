import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import {
  LINEAR_REGEXP_LIMITS,
  linearRegExpEngine,
  UnsupportedPatternError,
  withPatternWorkBudget,
} from '@idplane/common/linear-regexp'
import { isEmail } from 'class-validator'
import { BoundedMap } from '@idplane/common'
import { EMAIL_COLUMN, type TemplateColumn } from './csv-template'

/** A problem of one cell; `column` is `(row)` for the row as a whole (a wrong number of cells). */
export interface CellProblem {
  column: string
  reason: string
}

export interface CheckedRow {
  email: string
  /** The credentialSubject: each non-empty cell, typed by its column's data type. */
  attributes: Record<string, unknown>
  problems: CellProblem[]
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const MAX_EMAIL_LENGTH = 320

/** A cell's value as its data type: numbers, booleans and JSON (arrays, objects) parsed; otherwise the text. */
export function typedCell(raw: string, dataType: string): unknown {
  switch (dataType) {
    case 'number':
    case 'integer':
      return PLAIN_NUMBER.test(raw.trim()) ? Number(raw.trim()) : raw
    case 'boolean': {
      const lower = raw.trim().toLowerCase()
      return lower === 'true' ? true : lower === 'false' ? false : raw
    }
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw) as unknown
      } catch {
        return raw
      }
    default:
      return raw
  }
}

/** Same options as the schemas module's CredentialSchemaCheck, so a row passes here iff its credential passes there. */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateSchema: false,
    addUsedSchema: false,
    multipleOfPrecision: 9,
    // Patterns run on the linear-time matcher: V8's backtracking engine froze the API on `(a|a?)+$` (issue 23).
    code: { regExp: linearRegExpEngine },
  })
  addFormats(ajv)
  return ajv
}

const ajv = newAjv()
/** Compiled credentialSubject validators by schema id and record version (compiling costs far more than checking). */
const compiled = new BoundedMap<string, ValidateFunction>(100)

/** The credentialSubject node of a published credential schema (schemas/json-schema-builder.ts). */
export function subjectSchemaOf(jsonSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = jsonSchema.properties as Record<string, unknown> | undefined
  const subject = properties?.credentialSubject
  return typeof subject === 'object' && subject !== null ? (subject as Record<string, unknown>) : { type: 'object' }
}

/** A validator of one row's credentialSubject; cached by `cacheKey` (schema id and version). */
export function subjectValidator(cacheKey: string, jsonSchema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(cacheKey)
  if (!validate) {
    validate = ajv.compile(subjectSchemaOf(jsonSchema))
    compiled.set(cacheKey, validate)
  }
  return validate
}

/** The problems of one row's attributes against its template's types and constraints (isValidateSchema). */
export type RowValidator = (attributes: Record<string, unknown>) => CellProblem[]

/** W3C: the row's credentialSubject against the JSON schema the platform publishes. */
export function jsonSchemaRowValidator(cacheKey: string, jsonSchema: Record<string, unknown>): RowValidator {
  const validate = subjectValidator(cacheKey, jsonSchema)
  return (attributes) => {
    try {
      const isValid = withPatternWorkBudget(LINEAR_REGEXP_LIMITS.documentWork, () => validate(attributes))
      return isValid ? [] : (validate.errors ?? []).flatMap((error) => describe(error) ?? [])
    } catch (error) {
      // A value too long, or too costly, to be checked against its pattern (LINEAR_REGEXP_LIMITS): the row is refused.
      if (!(error instanceof UnsupportedPatternError)) throw error
      return [{ column: longestTextColumn(attributes) ?? '(row)', reason: error.reason }]
    }
  }
}

/** The column holding the longest text: the one a pattern limit refused, in practice. */
function longestTextColumn(attributes: Record<string, unknown>): string | undefined {
  let longest: [string, number] | undefined
  for (const [column, value] of Object.entries(attributes)) {
    if (typeof value === 'string' && (!longest || value.length > longest[1])) longest = [column, value.length]
  }
  return longest?.[0]
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/

function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value.slice(0, 10))
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * INDY: AnonCreds values are text; the platform's attribute definitions say what text each holds (`number`,
 * `date` as YYYY-MM-DD, `datetime` as ISO 8601; schemas/schema-payloads.ts).
 */
export function indyRowValidator(columns: readonly TemplateColumn[]): RowValidator {
  return (attributes) => {
    const problems: CellProblem[] = []
    for (const column of columns) {
      const value = attributes[column.name]
      if (typeof value !== 'string' || value.length === 0) continue
      const text = value.trim()
      if (column.dataType === 'number' && !PLAIN_NUMBER.test(text))
        problems.push({ column: column.name, reason: 'must be a number' })
      else if (column.dataType === 'date' && !(text.length === 10 && isCalendarDate(text)))
        problems.push({ column: column.name, reason: 'must be a date (YYYY-MM-DD)' })
      else if (column.dataType === 'datetime' && !(ISO_DATE_TIME.test(text) && isCalendarDate(text)))
        problems.push({ column: column.name, reason: 'must be a date and time (ISO 8601)' })
    }
    return problems
  }
}

/**
 * Checks rows of one upload: e-mail syntax and required values always; with `validate` (isValidateSchema),
 * every value against the schema's types and constraints. W3C cells become JSON values of their column's type;
 * INDY cells stay text (`typedCells` false), as AnonCreds signs text.
 */
export class RowChecker {
  public constructor(
    private readonly columns: readonly TemplateColumn[],
    private readonly validate: RowValidator | undefined,
    private readonly typedCells = true,
  ) {}

  /** `cells` by column name (email included). */
  public check(cells: Record<string, string>): CheckedRow {
    const problems: CellProblem[] = []
    const email = (cells[EMAIL_COLUMN] ?? '').trim()
    if (email.length === 0) problems.push({ column: EMAIL_COLUMN, reason: 'is required' })
    else if (email.length > MAX_EMAIL_LENGTH || !isEmail(email))
      problems.push({ column: EMAIL_COLUMN, reason: 'is not an e-mail address' })
    const attributes: Record<string, unknown> = {}
    for (const column of this.columns) {
      const raw = cells[column.name] ?? ''
      if (raw.trim().length === 0) {
        if (column.isRequired) problems.push({ column: column.name, reason: 'is required' })
        continue
      }
      attributes[column.name] = this.typedCells ? typedCell(raw, column.dataType) : raw
    }
    if (this.validate) {
      for (const problem of this.validate(attributes)) {
        // A missing required value is reported above, once, whatever the flag.
        if (!problems.some((known) => known.column === problem.column && known.reason === problem.reason))
          problems.push(problem)
      }
    }
    return { email, attributes, problems }
  }
}

/** `/age` → column `age`; `/address/city` → column `address`, reason `city: must be string`. */
function describe(error: ErrorObject): CellProblem | undefined {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
  const message = error.message ?? 'is invalid'
  if (segments.length === 0) {
    if (error.keyword === 'required') return undefined
    return { column: '(row)', reason: message }
  }
  const [column, ...inner] = segments
  const missing =
    error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined
  const path = [...inner, ...(missing ? [missing] : [])].join('.')
  const reason = error.keyword === 'required' ? 'is required' : message
  return { column, reason: path ? `${path}: ${reason}` : reason }
}
