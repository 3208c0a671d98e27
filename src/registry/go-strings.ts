// Go's string semantics that kube's messages and orderings depend on: byte-wise ordering and %q.

/** Orders strings as Go's sort.Strings does (UTF-8 bytes, i.e. code points), which differs from JS `<` past U+D7FF. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codePointRank(x) - codePointRank(y)
  }
  return a.length - b.length
}

// Surrogates stand for code points above U+FFFF, so they must rank after U+E000..U+FFFF.
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u
const shortEscapes: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
}

/** Go's %q (strconv.Quote): unlike JSON it uses \x01, \u00ad, \a and leaves printable non-ASCII alone. */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0
    if (ch === '"' || ch === '\\') out += '\\' + ch
    else if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0x80 && printable.test(ch))) out += ch
    else if (shortEscapes[cp] !== undefined) out += shortEscapes[cp]
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0')
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0')
    else out += '\\U' + cp.toString(16).padStart(8, '0')
  }
  return out + '"'
}
