// Go's encoding/csv reader as kube's token file reader configures it (comma `,`, FieldsPerRecord = -1, no comment
// character, no LazyQuotes, no TrimLeadingSpace): records, and its ParseError texts with Go's byte-based columns.
//
// Why a reader of our own and not a CSV library: kube's --token-auth-file accepts and refuses exactly what Go's
// reader does (digest §1.2), and the error text an operator sees names Go's line and byte column.

const NL = 0x0a
const CR = 0x0d
const QUOTE = 0x22
const COMMA = 0x2c

const ERR_BARE_QUOTE = 'bare " in non-quoted-field'
const ERR_QUOTE = 'extraneous or missing " in quoted-field'

/** csv.ParseError's text: `parse error on line L, column C: ...`, with the record's first line when it differs. */
function parseError(startLine: number, line: number, column: number, err: string): Error {
  return new Error(
    startLine !== line
      ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${err}`
      : `parse error on line ${line}, column ${column}: ${err}`,
  )
}

/** Go's reader works on bytes (columns count bytes), so the text is read as its UTF-8 bytes. */
class LineReader {
  private at = 0
  numLine = 0
  constructor(private readonly bytes: Uint8Array) {}

  /** readLine: the next line with its `\n`; `\r\n` normalised to `\n`; a `\r` just before EOF dropped. */
  readLine(): { line: Uint8Array; eof: boolean } {
    const b = this.bytes
    // Go counts a line even for the read that meets EOF; only error positions after EOF could show it.
    this.numLine++
    if (this.at >= b.length) return { line: b.subarray(b.length), eof: true }
    const nl = b.indexOf(NL, this.at)
    const end = nl < 0 ? b.length : nl + 1
    let line = b.subarray(this.at, end)
    this.at = end
    if (nl < 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1)
    const n = line.length
    if (n >= 2 && line[n - 2] === CR && line[n - 1] === NL) {
      const copy = line.slice(0, n - 1)
      copy[n - 2] = NL
      line = copy
    }
    return { line, eof: false }
  }
}

const lengthNL = (b: Uint8Array) => (b.length > 0 && b[b.length - 1] === NL ? 1 : 0)

/**
 * Every record of the text, or the first error as Go words it. Blank lines are skipped; a line of spaces is a record
 * of one field; quoted fields may hold commas, `""` and newlines.
 */
export function readCsv(text: string): string[][] {
  const reader = new LineReader(new TextEncoder().encode(text))
  const records: string[][] = []
  for (;;) {
    const record = readRecord(reader)
    if (record === null) return records
    records.push(record)
  }
}

/** One readRecord call: null at EOF. Fields are collected as byte runs and decoded once each. */
function readRecord(r: LineReader): string[] | null {
  let line: Uint8Array
  let eof = false
  for (;;) {
    ;({ line, eof } = r.readLine())
    if (!eof && line.length === lengthNL(line)) continue // blank line
    break
  }
  if (eof) return null

  const fields: string[] = []
  const decoder = new TextDecoder()
  let field: number[] = []
  const endField = () => {
    fields.push(decoder.decode(new Uint8Array(field)))
    field = []
  }
  const append = (bytes: Uint8Array) => {
    for (const x of bytes) field.push(x)
  }
  const recLine = r.numLine
  let pos = { line: r.numLine, col: 1 }

  for (;;) {
    if (line.length === 0 || line[0] !== QUOTE) {
      // Non-quoted field: up to the next comma or the end of the line; a quote anywhere in it is an error.
      const i = line.indexOf(COMMA)
      const f = i >= 0 ? line.subarray(0, i) : line.subarray(0, line.length - lengthNL(line))
      const j = f.indexOf(QUOTE)
      if (j >= 0) throw parseError(recLine, r.numLine, pos.col + j, ERR_BARE_QUOTE)
      append(f)
      endField()
      if (i < 0) return fields
      line = line.subarray(i + 1)
      pos.col += i + 1
      continue
    }
    // Quoted field: `""` is a quote, `",` and `"\n` end it, a quote followed by anything else is an error, and a
    // line end inside it continues the field on the next line.
    line = line.subarray(1)
    pos.col += 1
    for (;;) {
      const i = line.indexOf(QUOTE)
      if (i >= 0) {
        append(line.subarray(0, i))
        line = line.subarray(i + 1)
        pos.col += i + 1
        if (line[0] === QUOTE) {
          field.push(QUOTE)
          line = line.subarray(1)
          pos.col += 1
        } else if (line[0] === COMMA) {
          line = line.subarray(1)
          pos.col += 1
          endField()
          break
        } else if (lengthNL(line) === line.length) {
          endField()
          return fields
        } else {
          throw parseError(recLine, r.numLine, pos.col - 1, ERR_QUOTE)
        }
      } else if (line.length > 0) {
        append(line)
        pos.col += line.length
        ;({ line } = r.readLine())
        if (line.length > 0) pos = { line: pos.line + 1, col: 1 }
      } else {
        // EOF inside the quotes (Go clears its EOF after the read above, so this is always the quote error).
        throw parseError(recLine, pos.line, pos.col, ERR_QUOTE)
      }
    }
  }
}
