/**
 * GitHub Actions expressions (`${{ … }}` and `if:`), enough of them to run this repository's
 * workflows as written: literals, context paths (`github.event.workflow_run.head_sha`,
 * `steps.preview.outputs.url`, `…pull_requests[0].number`), `!`, `==`, `!=`, `<`, `<=`, `>`, `>=`,
 * `&&`, `||`, parentheses, and the functions success(), failure(), always(), cancelled(), format(),
 * contains(), startsWith(), endsWith(), toJSON(), fromJSON() and join(). Semantics follow
 * https://docs.github.com/en/actions/reference/workflows-and-actions/expressions: `&&` and `||`
 * return an operand, `==` compares strings case-insensitively, a missing property is null.
 * Anything else throws, naming it, so a workflow using more is noticed rather than misread.
 */

export type Value = unknown

export interface Status {
  /** Whether every earlier step (or needed job) succeeded. */
  success: boolean
  cancelled?: boolean
}

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'word'; value: string }
  | { kind: 'op'; value: string }

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === "'") {
      let value = ''
      i++
      for (;;) {
        if (i >= source.length) throw new Error(`unterminated string in ${source}`)
        if (source[i] === "'" && source[i + 1] === "'") {
          value += "'"
          i += 2
        } else if (source[i] === "'") {
          i++
          break
        } else value += source[i++]
      }
      tokens.push({ kind: 'string', value })
      continue
    }
    const two = source.slice(i, i + 2)
    if (['==', '!=', '<=', '>=', '&&', '||'].includes(two)) {
      tokens.push({ kind: 'op', value: two })
      i += 2
      continue
    }
    if ('!<>()[].,'.includes(c)) {
      tokens.push({ kind: 'op', value: c })
      i++
      continue
    }
    const number = /^-?\d+(\.\d+)?/.exec(source.slice(i))
    if (number && !/[\w-]/.test(source[i - 1] ?? ' ')) {
      tokens.push({ kind: 'number', value: Number(number[0]) })
      i += number[0].length
      continue
    }
    const word = /^[A-Za-z_][\w-]*/.exec(source.slice(i))
    if (word) {
      tokens.push({ kind: 'word', value: word[0] })
      i += word[0].length
      continue
    }
    throw new Error(`unexpected "${c}" in expression ${source}`)
  }
  return tokens
}

const truthy = (v: Value) => !(v === false || v === null || v === undefined || v === 0 || v === '' || Number.isNaN(v))

function loose(v: Value): Value {
  return typeof v === 'string' ? v.toLowerCase() : v
}

function equal(a: Value, b: Value): boolean {
  if (a === undefined) a = null
  if (b === undefined) b = null
  if (typeof a === typeof b) return loose(a) === loose(b)
  const n = (v: Value) =>
    v === null ? 0 : typeof v === 'boolean' ? Number(v) : typeof v === 'string' ? Number(v.trim() || 0) : Number.NaN
  return n(a) === n(b)
}

export function stringify(v: Value): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') return JSON.stringify(v, null, 2)
  return String(v)
}

/** Evaluates one expression (without `${{ }}`) against `contexts`. */
export function evaluate(source: string, contexts: Record<string, Value>, status: Status): Value {
  const tokens = tokenize(source)
  let pos = 0
  const peek = () => tokens[pos]
  const take = (value?: string) => {
    const token = tokens[pos++]
    if (!token || (value !== undefined && token.value !== value)) {
      throw new Error(`expected ${value ?? 'more'} in expression ${source}`)
    }
    return token
  }
  const isOp = (value: string) => peek()?.kind === 'op' && peek()?.value === value

  const functions: Record<string, (...args: Value[]) => Value> = {
    success: () => status.success && !status.cancelled,
    failure: () => !status.success,
    always: () => true,
    cancelled: () => !!status.cancelled,
    format: (template, ...args) =>
      stringify(template)
        .replace(/\{(\d+)\}/g, (_m, n: string) => stringify(args[Number(n)]))
        .replaceAll('{{', '{'),
    contains: (haystack, needle) =>
      Array.isArray(haystack)
        ? haystack.some((item) => equal(item, needle))
        : stringify(haystack).toLowerCase().includes(stringify(needle).toLowerCase()),
    startsWith: (s, p) => stringify(s).toLowerCase().startsWith(stringify(p).toLowerCase()),
    endsWith: (s, p) => stringify(s).toLowerCase().endsWith(stringify(p).toLowerCase()),
    toJSON: (v) => JSON.stringify(v ?? null, null, 2),
    fromJSON: (v) => JSON.parse(stringify(v)),
    join: (a, sep) =>
      Array.isArray(a) ? a.map(stringify).join(sep === undefined ? ',' : stringify(sep)) : stringify(a),
  }

  function primary(): Value {
    const token = take()
    if (token.kind === 'string' || token.kind === 'number') return token.value
    if (token.kind === 'op' && token.value === '(') {
      const value = or()
      take(')')
      return value
    }
    if (token.kind === 'op' && token.value === '!') return !truthy(unary())
    if (token.kind !== 'word') throw new Error(`unexpected ${token.value} in expression ${source}`)
    if (token.value === 'true') return true
    if (token.value === 'false') return false
    if (token.value === 'null') return null
    if (isOp('(')) {
      const fn = functions[token.value]
      if (!fn) throw new Error(`unsupported function ${token.value}() in expression ${source}`)
      take('(')
      const args: Value[] = []
      while (!isOp(')')) {
        args.push(or())
        if (isOp(',')) take(',')
      }
      take(')')
      return fn(...args)
    }
    if (!(token.value in contexts)) throw new Error(`unknown context ${token.value} in expression ${source}`)
    let value: Value = contexts[token.value]
    for (;;) {
      if (isOp('.')) {
        take('.')
        const key = take()
        if (key.kind !== 'word') throw new Error(`expected a property name in ${source}`)
        value = property(value, key.value)
      } else if (isOp('[')) {
        take('[')
        const key = or()
        take(']')
        value = property(value, key)
      } else return value
    }
  }
  function property(value: Value, key: Value): Value {
    if (value === null || value === undefined || typeof value !== 'object') return null
    if (Array.isArray(value)) return typeof key === 'number' ? (value[key] ?? null) : null
    const record = value as Record<string, Value>
    const match = Object.keys(record).find((k) => k.toLowerCase() === String(key).toLowerCase())
    return match === undefined ? null : record[match]
  }
  function unary(): Value {
    if (isOp('!')) {
      take('!')
      return !truthy(unary())
    }
    return primary()
  }
  function comparison(): Value {
    let left = unary()
    for (;;) {
      const op = peek()
      if (op?.kind !== 'op' || !['==', '!=', '<', '<=', '>', '>='].includes(op.value)) return left
      take()
      const right = unary()
      if (op.value === '==') left = equal(left, right)
      else if (op.value === '!=') left = !equal(left, right)
      else {
        const a = Number(left)
        const b = Number(right)
        left = op.value === '<' ? a < b : op.value === '<=' ? a <= b : op.value === '>' ? a > b : a >= b
      }
    }
  }
  function and(): Value {
    let left = comparison()
    while (isOp('&&')) {
      take('&&')
      const right = comparison()
      left = truthy(left) ? right : left
    }
    return left
  }
  function or(): Value {
    let left = and()
    while (isOp('||')) {
      take('||')
      const right = and()
      left = truthy(left) ? left : right
    }
    return left
  }

  const value = or()
  if (pos !== tokens.length) throw new Error(`unexpected ${tokens[pos]?.value} in expression ${source}`)
  return value
}

/** A string with every `${{ … }}` replaced by its value. */
export function interpolate(text: string, contexts: Record<string, Value>, status: Status): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expression: string) =>
    stringify(evaluate(expression, contexts, status)),
  )
}

/** An `if:` condition: `${{ }}` optional; without a status function, `success() &&` is implied. */
export function condition(raw: unknown, contexts: Record<string, Value>, status: Status): boolean {
  if (raw === undefined || raw === null) return status.success
  if (typeof raw === 'boolean') return raw && status.success
  let source = String(raw).trim()
  const wrapped = /^\$\{\{([\s\S]*)\}\}$/.exec(source)
  if (wrapped) source = wrapped[1] as string
  const usesStatus = /\b(success|failure|always|cancelled)\s*\(/.test(source)
  const value = truthy(evaluate(source, contexts, status))
  return usesStatus ? value : status.success && value
}

export { truthy }
