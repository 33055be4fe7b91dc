/** The column every template and upload starts with: the recipient's address. */
export const EMAIL_COLUMN = 'email'

/** One attribute column of a template, from a top-level attribute definition of the schema. */
export interface TemplateColumn {
  name: string
  /** The attribute definition's `schemaDataType` (`string`, `number`, `integer`, `boolean`, `date`, ...). */
  dataType: string
  isRequired: boolean
  displayName?: string
}

/** Characters that make a spreadsheet evaluate a cell (OWASP "CSV injection"), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/

/** A plain number such as `-12.5` or `+3e2`: it starts with `-` or `+` but no spreadsheet runs it. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** Whether a cell would be executed by a spreadsheet: starts with = + - @ tab or CR and is not a plain number. */
export function isFormulaCell(value: string): boolean {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)
}

/** A cell a spreadsheet shows as text: a would-be formula gets a leading `'` (spreadsheets hide it). */
export function neutralizeCell(value: string): string {
  return isFormulaCell(value) ? `'${value}` : value
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; never a formula. */
export function csvField(value: string): string {
  const safe = neutralizeCell(value)
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The template's columns: `email`, then each top-level attribute of the schema in its order. */
export function templateColumns(attributeDefinitions: readonly Record<string, unknown>[]): TemplateColumn[] {
  return attributeDefinitions.flatMap((definition) =>
    typeof definition.attributeName === 'string'
      ? [
          {
            name: definition.attributeName,
            dataType: typeof definition.schemaDataType === 'string' ? definition.schemaDataType : 'string',
            isRequired: definition.isRequired === true,
            ...(typeof definition.displayName === 'string' ? { displayName: definition.displayName } : {}),
          },
        ]
      : [],
  )
}

/** The template file: one header line, CRLF-terminated (RFC 4180), `email` first. */
export function templateCsv(columns: readonly TemplateColumn[]): string {
  return `${[EMAIL_COLUMN, ...columns.map((column) => column.name)].map(csvField).join(',')}\r\n`
}

/**
 * A download name from the schema's name and version: letters, digits, `-` and `_` only, so that the
 * Content-Disposition header needs no quoting tricks and no path reaches the client's file system.
 */
export function templateFileName(name: string, version: string): string {
  const safe = `${name}-${version}`
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100)
  return `${safe || 'template'}-bulk-template.csv`
}

/** A header cell as written in a file: a neutralized name (`'=x`) counts as the name itself. */
export function headerName(cell: string): string {
  const trimmed = cell.trim()
  return trimmed.startsWith("'") && FORMULA_START.test(trimmed.slice(1)) ? trimmed.slice(1) : trimmed
}
