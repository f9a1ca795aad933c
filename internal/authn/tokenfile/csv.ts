// A CSV reader with the rules of Go's encoding/csv as kube's token file uses it: comma separated,
// `"` quotes a field (`""` is a quote inside one; a quoted field may span lines), no comment
// character, no trimming, blank lines skipped, any number of fields per record, and a bare `"`
// inside an unquoted field or text after a closing quote is an error (LazyQuotes off).

/** One record with the 1-based line where it starts. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/** A malformed CSV file; `line` is 1-based. */
export class CsvSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

interface Cursor {
  readonly text: string;
  position: number;
  line: number;
}

function readQuotedField(cursor: Cursor): string {
  const startLine = cursor.line;
  let value = '';
  cursor.position++; // the opening quote
  for (;;) {
    const quote = cursor.text.indexOf('"', cursor.position);
    if (quote < 0) throw new CsvSyntaxError(startLine, 'extraneous or missing " in quoted-field');
    const chunk = cursor.text.slice(cursor.position, quote);
    cursor.line += chunk.split('\n').length - 1;
    value += chunk;
    cursor.position = quote + 1;
    if (cursor.text[cursor.position] !== '"') break;
    value += '"';
    cursor.position++;
  }
  const next = cursor.text[cursor.position];
  if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw new CsvSyntaxError(cursor.line, 'extraneous or missing " in quoted-field');
  return value.replace(/\r\n/g, '\n');
}

function readUnquotedField(cursor: Cursor): string {
  let end = cursor.position;
  while (end < cursor.text.length && cursor.text[end] !== ',' && cursor.text[end] !== '\n') end++;
  let value = cursor.text.slice(cursor.position, end);
  if (value.endsWith('\r') && cursor.text[end] !== ',') value = value.slice(0, -1);
  if (value.includes('"')) throw new CsvSyntaxError(cursor.line, 'bare " in non-quoted-field');
  cursor.position = end;
  return value;
}

function isBlankLine(cursor: Cursor): boolean {
  const rest = cursor.text.slice(cursor.position, cursor.position + 2);
  return rest.startsWith('\n') || rest === '\r\n';
}

/** Parses `text` into records; throws CsvSyntaxError on malformed quoting. */
export function parseCsv(text: string): CsvRecord[] {
  const cursor: Cursor = { text, position: 0, line: 1 };
  const records: CsvRecord[] = [];
  while (cursor.position < text.length) {
    if (isBlankLine(cursor)) {
      cursor.position += text[cursor.position] === '\r' ? 2 : 1;
      cursor.line++;
      continue;
    }
    const line = cursor.line;
    const fields: string[] = [];
    for (;;) {
      fields.push(text[cursor.position] === '"' ? readQuotedField(cursor) : readUnquotedField(cursor));
      const separator = text[cursor.position];
      if (separator === ',') {
        cursor.position++;
        continue;
      }
      if (separator === '\r') cursor.position++;
      if (text[cursor.position] === '\n') {
        cursor.position++;
        cursor.line++;
      }
      break;
    }
    records.push({ line, fields });
  }
  return records;
}
