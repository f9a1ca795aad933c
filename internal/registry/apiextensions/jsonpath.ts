// client-go's JSONPath templates (k8s.io/client-go/util/jsonpath), the part CRD printer columns
// use: text and `{...}` actions with fields (`.a.b`, `['a']`, backslash-escaped dots), array
// indexes and slices (`[0]`, `[-1]`, `[1:3]`, `[::2]`), wildcards, unions (`[0,2]`), `..`
// recursive descent and filters (`[?(@.type=="Ready")]`, ==, !=, <, >, <=, >=, existence). Parse
// errors and evaluation errors carry client-go's wording. `range`/`end` parse but are refused when
// evaluated: nothing here iterates templates.

/** A parse or evaluation failure, worded as client-go words it. */
export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

interface SliceParam {
  readonly known: boolean;
  readonly value: number;
  /** The end of `[i]`: i + 1, read as "to the end" when it comes out 0 (`[-1]`). */
  readonly derived: boolean;
}

type ListNode = { readonly kind: 'list'; readonly nodes: Node[] };
type Node =
  | ListNode
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | { readonly kind: 'filter'; readonly left: ListNode; readonly right: ListNode; readonly operator: string }
  | { readonly kind: 'int' | 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'wildcard' | 'recursive' }
  | { readonly kind: 'union'; readonly lists: ListNode[] }
  | { readonly kind: 'identifier'; readonly name: string };

/** A parsed template: its text nodes and `{...}` actions in order. */
export interface JsonPath {
  readonly text: string;
  readonly root: ListNode;
}

const newList = (): ListNode => ({ kind: 'list', nodes: [] });
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string): boolean => r === '' || ' \t\r\n.,[]$@{}'.includes(r);
const sliceOperator = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/;
const filterComparison = /^([^!<>=]+)([!<>=]+)(.+?)$/;

/** Go's %#U: `U+0021 '!'`. */
function goRune(r: string): string {
  return `U+${(r.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

/** strconv.Unquote extended to single-quoted strings (client-go's UnquoteExtend). */
function unquote(quoted: string): string {
  const quote = quoted[0];
  if (quoted.length < 2 || quote !== quoted[quoted.length - 1] || (quote !== '"' && quote !== "'")) throw new Error('invalid syntax');
  const body = quoted.slice(1, -1);
  const simple: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === quote) throw new Error('invalid syntax');
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    const hex = { x: 2, u: 4, U: 8 }[e];
    if (simple[e] !== undefined) out += simple[e];
    else if (e === quote) out += e;
    else if (hex !== undefined && /^[0-9a-fA-F]+$/.test(body.slice(i + 1, i + 1 + hex)) && body.length >= i + 1 + hex) {
      out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + hex), 16));
      i += hex;
    } else if (/^[0-7]{3}$/.test(body.slice(i, i + 3)) && parseInt(body.slice(i, i + 3), 8) <= 255) {
      out += String.fromCharCode(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else throw new Error('invalid syntax');
  }
  return out;
}

/** client-go's Parser over code points: `pos` reads, `start` marks what consumeText returns. */
class Parser {
  private readonly chars: string[];
  private pos = 0;
  private start = 0;
  readonly root = newList();

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  /** The next code point, '' at the end (which does not advance). */
  private next(): string {
    const r = this.chars[this.pos];
    if (r === undefined) return '';
    this.pos++;
    return r;
  }
  /** Steps back over a code point next() returned (never over the end). */
  private backup(): void {
    this.pos--;
  }
  private peek(): string {
    return this.chars[this.pos] ?? '';
  }
  private startsWith(prefix: string): boolean {
    return this.chars.slice(this.pos, this.pos + prefix.length).join('') === prefix;
  }
  private consumeText(): string {
    const value = this.chars.slice(this.start, this.pos).join('');
    this.start = this.pos;
    return value;
  }

  /** Text up to each `{`, then the action up to its `}`. */
  parse(): ListNode {
    for (;;) {
      while (this.pos < this.chars.length && !this.startsWith('{')) this.pos++;
      if (this.pos > this.start) this.root.nodes.push({ kind: 'text', text: this.consumeText() });
      if (this.pos >= this.chars.length) return this.root;
      this.pos++;
      this.consumeText();
      const action = newList();
      this.root.nodes.push(action);
      while (!this.step(action));
    }
  }

  /** One token of an action; true once its closing `}` is consumed. */
  private step(cur: ListNode): boolean {
    if (this.startsWith('}')) {
      this.pos++;
      this.consumeText();
      return true;
    }
    if (this.startsWith('[?(')) this.parseFilter(cur);
    else if (this.startsWith('..')) this.parseRecursive(cur);
    else this.parseToken(cur);
    return false;
  }

  /** Any other token: spaces and `@`/`$` are skipped, the rest dispatched on its first code point. */
  private parseToken(cur: ListNode): void {
    const r = this.next();
    if (r === '' || r === '\r' || r === '\n') throw new JsonPathError('unclosed action');
    if (r === ' ' || r === '@' || r === '$') this.consumeText();
    else if (r === '[') this.parseArray(cur);
    else if (r === '"' || r === "'") this.parseQuote(cur, r);
    else if (r === '.') this.parseField(cur);
    else if (r === '+' || r === '-' || isDigit(r) || isAlphaNumeric(r)) {
      this.backup();
      if (isAlphaNumeric(r) && !isDigit(r)) this.parseIdentifier(cur);
      else this.parseNumber(cur);
    } else throw new JsonPathError(`unrecognized character in action: ${goRune(r)}`);
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        if (r !== '') this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === 'true' || value === 'false' ? { kind: 'bool', value: value === 'true' } : { kind: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes[cur.nodes.length - 1]?.kind === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ kind: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    if (this.peek() === '+' || this.peek() === '-') this.pos++;
    while (this.peek() === '.' || (this.peek() !== '' && isDigit(this.peek()))) this.pos++;
    const value = this.consumeText();
    if (/^[+-]?[0-9]+$/.test(value)) cur.nodes.push({ kind: 'int', value: Number(value) });
    else if (/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (let r = this.next(); r !== ']'; r = this.next()) {
      if (r === '' || r === '\n') throw new JsonPathError('unterminated array');
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ kind: 'union', lists: parts.map((part) => parseSubAction(`[${part.replace(/^ +| +$/g, '')}]`)) });
      return;
    }
    const key = /^'([^']*)'$/.exec(text);
    if (key !== null) {
      cur.nodes.push(...parseSubAction(`.${key[1]}`).nodes);
      return;
    }
    const slice = sliceOperator.exec(text);
    if (slice === null) throw new JsonPathError(`invalid array index ${text}`);
    cur.nodes.push({ kind: 'array', params: sliceParams(slice) });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
        } else if (this.chars[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const comparison = filterComparison.exec(text);
    if (comparison === null) cur.nodes.push({ kind: 'filter', left: parseSubAction(text), right: newList(), operator: 'exists' });
    else cur.nodes.push({ kind: 'filter', left: parseSubAction(comparison[1] ?? ''), right: parseSubAction(comparison[3] ?? ''), operator: comparison[2] ?? '' });
  }

  private parseQuote(cur: ListNode, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === quote && this.chars[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    try {
      cur.nodes.push({ kind: 'text', text: unquote(value) });
    } catch (err) {
      throw new JsonPathError(`unquote string ${value} error ${(err as Error).message}`);
    }
  }

  /** A field after `.`, up to an unescaped terminator; backslashes are dropped from its name. */
  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        if (r !== '') this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === '*' ? { kind: 'wildcard' } : { kind: 'field', name: value.replace(/\\/g, '') });
  }
}

function sliceParams(match: RegExpExecArray): [SliceParam, SliceParam, SliceParam] {
  const params: SliceParam[] = [];
  for (let i = 0; i < 3; i++) {
    const raw = match[i + 1] ?? '';
    if (raw === '') {
      params.push(i === 1 ? { known: true, value: (params[0]?.value ?? 0) + 1, derived: true } : { known: false, value: 0, derived: false });
      continue;
    }
    const digits = i > 0 ? raw.slice(1) : raw;
    if (i > 0 && digits === '') params.push({ known: false, value: 0, derived: false });
    else if (!/^-?[0-9]+$/.test(digits)) throw new JsonPathError(`array index ${digits} is not a number`);
    else params.push({ known: true, value: Number(digits), derived: false });
  }
  return params as [SliceParam, SliceParam, SliceParam];
}

/** client-go's parseAction: `text` parsed as the inside of one action. */
function parseSubAction(text: string): ListNode {
  const first = new Parser(`{${text}}`).parse().nodes[0];
  return first?.kind === 'list' ? first : newList();
}

/** Parses a template (`{.spec.replicas}`, `x={.a}`); throws JsonPathError with client-go's message. */
export function compileJsonPath(text: string): JsonPath {
  return { text, root: new Parser(text).parse() };
}

/** Parses a template and reports client-go's parse error, if any, instead of throwing. */
export function parseJsonPath(text: string): { path?: JsonPath; error?: string } {
  try {
    return { path: compileJsonPath(text) };
  } catch (err) {
    if (err instanceof JsonPathError) return { error: err.message };
    throw err;
  }
}

/**
 * Parses a printer column's `jsonPath` as kube's table does, wrapped as the template
 * `{<jsonPath>}`. (kube does not refuse a CRD whose column path fails here: its table then keeps
 * only the columns before it. simpleJsonPathProblem is what CRD validation checks.)
 */
export function parseColumnJsonPath(jsonPath: string): { path?: JsonPath; error?: string } {
  return parseJsonPath(`{${jsonPath}}`);
}

/**
 * kube's CRD validation of a printer column's or scale path's jsonPath (validateSimpleJSONPath):
 * the detail of its Invalid error, or undefined when the path is accepted.
 */
export function simpleJsonPathProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (!path.startsWith('.')) return 'must be a simple json path starting with .';
  return undefined;
}

// Evaluation over JSON values. A `null` is Go's nil interface: found by a field step, skipped by
// every step after it. Object keys iterate sorted (client-go sorts map keys).

type Json = unknown;

function isMap(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The elements a wildcard, `..` or filter walks: array items, or map values by sorted key. */
function children(value: Json): Json[] | undefined {
  if (Array.isArray(value)) return value;
  if (isMap(value)) return Object.keys(value).sort().map((k) => value[k]);
  return undefined;
}

/** The Go type client-go names in "is not array or slice". */
function goTypeName(value: Json): string {
  if (isMap(value)) return 'map[string]interface {}';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'string' ? 'string' : 'interface {}';
}

function evalField(input: Json[], name: string, allowMissingKeys: boolean): Json[] {
  const results = input.filter((v): v is Record<string, Json> => isMap(v) && Object.hasOwn(v, name)).map((v) => v[name]);
  if (results.length === 0 && input.length > 0 && !allowMissingKeys) throw new JsonPathError(`${name} is not found`);
  return results;
}

function evalArray(input: Json[], params: readonly [SliceParam, SliceParam, SliceParam]): Json[] {
  const result: Json[] = [];
  for (const value of input) {
    if (value === null) continue;
    if (!Array.isArray(value)) throw new JsonPathError(`${goTypeName(value)} is not array or slice`);
    const length = value.length;
    let from = params[0].known ? params[0].value : 0;
    if (from < 0) from += length;
    let to = params[1].known ? params[1].value : length;
    if (to < 0 || (to === 0 && params[1].derived)) to += length;
    // Zero elements asked for: client-go returns what it has so far.
    if (to === from) return result;
    if (from >= length || from < 0) throw new JsonPathError(`array index out of bounds: index ${from}, length ${length}`);
    if (to > length || to < 0) throw new JsonPathError(`array index out of bounds: index ${to - 1}, length ${length}`);
    if (from > to) throw new JsonPathError(`starting index ${from} is greater than ending index ${to}`);
    const step = params[2].known ? params[2].value : 1;
    if (step <= 0) throw new JsonPathError('step must be > 0');
    for (let i = from; i < to; i += step) result.push(value[i]);
  }
  return result;
}

function evalRecursive(input: Json[]): Json[] {
  const result: Json[] = [];
  for (const value of input) {
    const inner = children(value);
    if (inner === undefined || inner.length === 0) continue;
    result.push(value, ...evalRecursive(inner));
  }
  return result;
}

/**
 * A filter comparison as client-go's template functions decide it: numbers, strings and booleans
 * compare within their kind (booleans by == and != only); other kinds or mixed kinds fail the
 * comparison, which `!=` counts as a match and every other operator as a miss.
 */
function compare(operator: string, left: Json, right: Json): boolean {
  const kind = (v: Json): string | undefined => (['number', 'string', 'boolean'].includes(typeof v) ? typeof v : undefined);
  const comparable = kind(left) !== undefined && kind(left) === kind(right);
  if (!['<', '>', '==', '!=', '<=', '>='].includes(operator)) throw new JsonPathError(`unrecognized filter operator ${operator}`);
  if (!comparable) return operator === '!=';
  if (operator === '==') return left === right;
  if (operator === '!=') return left !== right;
  if (typeof left === 'boolean') return false;
  const [l, r] = [left as number | string, right as number | string];
  return operator === '<' ? l < r : operator === '>' ? l > r : operator === '<=' ? l <= r : l >= r;
}

function evalFilter(input: Json[], node: Extract<Node, { kind: 'filter' }>, allowMissingKeys: boolean): Json[] {
  const results: Json[] = [];
  for (const value of input) {
    for (const item of children(value) ?? [value]) {
      let lefts: Json[];
      try {
        lefts = evalList([item], node.left, allowMissingKeys);
      } catch (err) {
        if (!allowMissingKeys) throw err;
        lefts = [];
      }
      const rights = evalList([item], node.right, allowMissingKeys);
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
      if (node.operator === 'exists') {
        results.push(item);
        continue;
      }
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
      if (compare(node.operator, lefts[0], rights[0])) results.push(item);
    }
  }
  return results;
}

function walk(input: Json[], node: Node, allowMissingKeys: boolean): Json[] {
  switch (node.kind) {
    case 'list':
      return evalList(input, node, allowMissingKeys);
    case 'text':
      return [node.text];
    case 'field':
      return evalField(input, node.name, allowMissingKeys);
    case 'array':
      return evalArray(input, node.params);
    case 'filter':
      return evalFilter(input, node, allowMissingKeys);
    case 'int':
    case 'float':
    case 'bool':
      return input.map(() => node.value);
    case 'wildcard':
      return input.flatMap((v) => children(v) ?? []);
    case 'recursive':
      return evalRecursive(input);
    case 'union':
      return node.lists.flatMap((list) => evalList(input, list, allowMissingKeys));
    case 'identifier':
      if (node.name === 'range' || node.name === 'end') throw new JsonPathError(`${node.name} is not supported here`);
      throw new JsonPathError(`unrecognized identifier ${node.name}`);
  }
}

function evalList(input: Json[], list: ListNode, allowMissingKeys: boolean): Json[] {
  let current = input;
  for (const node of list.nodes) current = walk(current, node, allowMissingKeys);
  return current;
}

/** Options of an evaluation. */
export interface EvaluateOptions {
  /** A missing field yields no result instead of "<name> is not found" (printer columns set it). */
  readonly allowMissingKeys?: boolean;
}

/**
 * client-go's FindResults: one result list per top-level node of the template (a text node, or
 * an action), each evaluated against `data`. Throws JsonPathError (out of bounds, not an array...).
 */
export function findResults(path: JsonPath | string, data: unknown, options: EvaluateOptions = {}): unknown[][] {
  const parsed = typeof path === 'string' ? compileJsonPath(path) : path;
  return parsed.root.nodes.map((node) => walk([data], node, options.allowMissingKeys ?? false));
}

/** Every result of `path` on `data`, in order (findResults flattened); missing keys yield nothing. */
export function evaluate(path: JsonPath | string, data: unknown, options: EvaluateOptions = { allowMissingKeys: true }): unknown[] {
  return findResults(path, data, options).flat();
}
