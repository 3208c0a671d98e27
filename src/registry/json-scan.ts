// Finds duplicate object keys in JSON text (JSON.parse silently keeps the last one; kube's strict decoder reports them).

/** Paths of duplicated keys, printed like field paths: `spec.containers[0].image`. Assumes the text is valid JSON. */
export function duplicateFields(text: string): string[] {
  const dups: string[] = []
  let i = 0
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  }
  // Every request body is scanned, so values are only skipped, and a key is decoded only when it has an escape.
  const str = (decode: boolean): string => {
    const start = ++i // past the opening quote
    let escaped = false
    while (i < text.length && text.charCodeAt(i) !== 34) {
      if (text.charCodeAt(i) === 92) {
        escaped = true
        i += 2
      } else i++
    }
    i++
    if (!decode) return ''
    return escaped ? (JSON.parse(text.slice(start - 1, i)) as string) : text.slice(start, i - 1)
  }
  const value = (path: string) => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      const seen = new Set<string>()
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        const key = str(true)
        const child = path ? `${path}.${key}` : key
        if (seen.has(key)) dups.push(child)
        seen.add(key)
        ws()
        i++ // colon
        value(child)
        ws()
        if (text[i++] === '}') return
      }
    } else if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`)
        ws()
        if (text[i++] === ']') return
      }
    } else if (c === '"') {
      str(false)
    } else {
      while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++
    }
  }
  value('')
  return dups
}
