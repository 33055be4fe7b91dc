import {
  csvField,
  headerName,
  isFormulaCell,
  neutralizeCell,
  templateColumns,
  templateCsv,
  templateFileName,
} from './csv-template'

describe('formula cells', () => {
  it.each(['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")', '-', '+'])(
    'treats %j as a formula',
    (cell) => {
      expect(isFormulaCell(cell)).toBe(true)
      expect(neutralizeCell(cell)).toBe(`'${cell}`)
    },
  )

  it.each(['-12.5', '+3', '-0.5e3', 'plain', '', ' =x', "'=x", 'a=b'])('leaves %j alone', (cell) => {
    expect(isFormulaCell(cell)).toBe(false)
    expect(neutralizeCell(cell)).toBe(cell)
  })
})

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, and never emits a formula', () => {
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"')
    expect(csvField('=1,2')).toBe(`"'=1,2"`)
    expect(csvField('name')).toBe('name')
  })
})

describe('templates', () => {
  const definitions = [
    { attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true },
    { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: false },
    { attributeName: '=evil', displayName: 'Evil', schemaDataType: 'string', isRequired: false },
    { displayName: 'no name' },
  ]

  it('has email then one column per top-level attribute, in order, with their requiredness', () => {
    expect(templateColumns(definitions)).toEqual([
      { name: 'name', dataType: 'string', isRequired: true, displayName: 'Name' },
      { name: 'age', dataType: 'integer', isRequired: false, displayName: 'Age' },
      { name: '=evil', dataType: 'string', isRequired: false, displayName: 'Evil' },
    ])
  })

  it('writes one CRLF-terminated header line whose cells no spreadsheet executes', () => {
    const csv = templateCsv(templateColumns(definitions))
    expect(csv).toBe("email,name,age,'=evil\r\n")
    for (const cell of csv.trim().split(',')) expect(isFormulaCell(cell)).toBe(false)
  })

  it('reads a neutralized header cell as its name', () => {
    expect(headerName("'=evil")).toBe('=evil')
    expect(headerName(' name ')).toBe('name')
    expect(headerName("'plain")).toBe("'plain")
  })

  it('names the file with safe characters only', () => {
    expect(templateFileName('Employee Badge', '1.0')).toBe('Employee-Badge-1-0-bulk-template.csv')
    expect(templateFileName('../"x";\r\n', '')).toBe('x-bulk-template.csv')
    expect(templateFileName('日本', '')).toBe('template-bulk-template.csv')
  })
})
