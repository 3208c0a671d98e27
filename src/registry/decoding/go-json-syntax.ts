// The syntax error Go's encoding/json reports for JSON text it cannot parse (`unexpected end of JSON input`,
// `invalid character 'x' looking for beginning of value`, ...). JSON.parse words its errors differently, so once it
// has failed this scanner runs over the bytes to find Go's message; it is never on the path of a valid body.
import { goQuote } from '../go-strings'

/** Go's nesting limit (encoding/json scanner maxNestingDepth). */
const MAX_NESTING = 10000

enum Ctx {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)

/** Go's quoteChar: a byte as a quoted rune (bytes above 0x7f are read as the rune of the same number). */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`
  if (c === 0x22) return `'"'`
  const q = goQuote(String.fromCharCode(c))
  return `'${q.slice(1, -1)}'`
}

/** The message Go gives for JSON text, or null when the text is valid JSON. */
export function goJsonSyntaxError(bytes: Uint8Array): string | null {
  const stack: Ctx[] = []
  let i = 0
  const n = bytes.length
  // At the end of input Go's scanner steps once more with a space, so a number, literal or escape cut short is
  // "invalid character ' ' ..." rather than "unexpected end".
  const cur = () => (i < n ? bytes[i]! : 0x20)
  const bad = (context: string) => `invalid character ${quoteChar(cur())} ${context}`
  const eof = 'unexpected end of JSON input'

  // Reads one value starting at i; returns an error or null, leaving i after the value.
  // Containers are handled iteratively through `stack`, so deep documents cannot overflow the JS stack.
  for (;;) {
    // Expect the beginning of a value (or, right after '[', a ']').
    while (i < n && isSpace(bytes[i]!)) i++
    if (i >= n) return eof
    let c = bytes[i]!
    if (c === 0x7b /* { */) {
      i++
      if (stack.length >= MAX_NESTING) return `invalid character '{' exceeded max depth`
      while (i < n && isSpace(bytes[i]!)) i++
      if (i >= n) return eof
      if (bytes[i] === 0x7d) {
        i++
      } else {
        stack.push(Ctx.ObjectKey)
        if (bytes[i] !== 0x22) return bad('looking for beginning of object key string')
        const err = scanString()
        if (err) return err
        const colon = afterKey()
        if (colon) return colon
        continue
      }
    } else if (c === 0x5b /* [ */) {
      i++
      if (stack.length >= MAX_NESTING) return `invalid character '[' exceeded max depth`
      while (i < n && isSpace(bytes[i]!)) i++
      if (i >= n) return eof
      if (bytes[i] === 0x5d) {
        i++
      } else {
        stack.push(Ctx.ArrayValue)
        continue
      }
    } else if (c === 0x22) {
      const err = scanString()
      if (err) return err
    } else if (c === 0x2d || isDigit(c)) {
      const err = scanNumber()
      if (err) return err
    } else if (c === 0x74) {
      const err = scanWord('true')
      if (err) return err
    } else if (c === 0x66) {
      const err = scanWord('false')
      if (err) return err
    } else if (c === 0x6e) {
      const err = scanWord('null')
      if (err) return err
    } else {
      return bad('looking for beginning of value')
    }
    // A value ended: close containers and find where the next value starts.
    for (;;) {
      while (i < n && isSpace(bytes[i]!)) i++
      if (stack.length === 0) {
        if (i < n) return bad('after top-level value')
        return null
      }
      if (i >= n) return eof
      c = bytes[i]!
      const top = stack[stack.length - 1]!
      if (top === Ctx.ObjectValue) {
        if (c === 0x2c) {
          i++
          stack[stack.length - 1] = Ctx.ObjectKey
          while (i < n && isSpace(bytes[i]!)) i++
          if (i >= n) return eof
          if (bytes[i] !== 0x22) return bad('looking for beginning of object key string')
          const err = scanString()
          if (err) return err
          const colon = afterKey()
          if (colon) return colon
          break
        }
        if (c === 0x7d) {
          i++
          stack.pop()
          continue
        }
        return bad('after object key:value pair')
      }
      // ArrayValue
      if (c === 0x2c) {
        i++
        break
      }
      if (c === 0x5d) {
        i++
        stack.pop()
        continue
      }
      return bad('after array element')
    }
  }

  function afterKey(): string | null {
    while (i < n && isSpace(bytes[i]!)) i++
    if (i >= n) return eof
    if (bytes[i] !== 0x3a) return bad('after object key')
    i++
    stack[stack.length - 1] = Ctx.ObjectValue
    return null
  }

  function scanString(): string | null {
    i++ // opening quote
    for (;;) {
      if (i >= n) return eof
      const c = bytes[i]!
      if (c === 0x22) {
        i++
        return null
      }
      if (c === 0x5c) {
        i++
        const e = cur()
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            i++
            if (!isHex(cur())) return bad('in \\u hexadecimal character escape')
          }
        } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) {
          return bad('in string escape code')
        }
        i++
        continue
      }
      if (c < 0x20) return bad('in string literal')
      i++
    }
  }

  function scanNumber(): string | null {
    if (bytes[i] === 0x2d) {
      i++
      if (!isDigit(cur())) return bad('in numeric literal')
    }
    if (bytes[i] === 0x30) i++
    else while (i < n && isDigit(bytes[i]!)) i++
    if (i < n && bytes[i] === 0x2e) {
      i++
      if (!isDigit(cur())) return bad('after decimal point in numeric literal')
      while (i < n && isDigit(bytes[i]!)) i++
    }
    if (i < n && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
      i++
      if (i < n && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++
      if (!isDigit(cur())) return bad('in exponent of numeric literal')
      while (i < n && isDigit(bytes[i]!)) i++
    }
    return null
  }

  function scanWord(word: string): string | null {
    for (let k = 1; k < word.length; k++) {
      i++
      if (cur() !== word.charCodeAt(k)) return bad(`in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`)
    }
    i++
    return null
  }
}
