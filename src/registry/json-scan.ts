// Finds duplicate object keys in JSON text (JSON.parse silently keeps the last one; kube's strict decoder reports them).

/** Paths of duplicated keys, printed like field paths: `spec.containers[0].image`. Assumes the text is valid JSON. */
export function duplicateFields(text: string): string[] {
  const dups: string[] = []
  // The path to the current value as segments (keys, indices), joined only when a duplicate is found: every Warn
  // and Strict body is scanned, and almost none has one.
  const path: (string | number)[] = []
  let i = 0
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  }
  // Strings are skipped with indexOf (a quote is the end unless an odd run of backslashes precedes it); a key is
  // decoded only when it has an escape.
  const str = (decode: boolean): string => {
    const start = ++i // past the opening quote
    for (;;) {
      const q = text.indexOf('"', i)
      if (q < 0) {
        i = text.length
        break
      }
      let slashes = 0
      while (text.charCodeAt(q - 1 - slashes) === 92) slashes++
      i = q + 1
      if (slashes % 2 === 0) break
    }
    if (!decode) return ''
    const raw = text.slice(start, i - 1)
    return raw.includes('\\') ? (JSON.parse(text.slice(start - 1, i)) as string) : raw
  }
  const printed = (key: string) => {
    let s = ''
    for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p
    return s ? `${s}.${key}` : key
  }
  const value = () => {
    ws()
    const c = text.charCodeAt(i)
    if (c === 123 /* { */) {
      i++
      ws()
      if (text.charCodeAt(i) === 125) {
        i++
        return
      }
      let seen: Set<string> | null = null
      let first: string | null = null
      for (;;) {
        ws()
        const key = str(true)
        // Most objects have a handful of keys; a Set is made only for the second one on.
        if (first === null) first = key
        else {
          seen ??= new Set([first])
          if (seen.has(key)) dups.push(printed(key))
          seen.add(key)
        }
        ws()
        i++ // colon
        path.push(key)
        value()
        path.pop()
        ws()
        if (text.charCodeAt(i++) === 125) return
      }
    } else if (c === 91 /* [ */) {
      i++
      ws()
      if (text.charCodeAt(i) === 93) {
        i++
        return
      }
      for (let n = 0; ; n++) {
        path.push(n)
        value()
        path.pop()
        ws()
        if (text.charCodeAt(i++) === 93) return
      }
    } else if (c === 34) {
      str(false)
    } else {
      // A number or literal ends at a delimiter or whitespace.
      for (
        let d = text.charCodeAt(i);
        i < text.length && d !== 44 && d !== 93 && d !== 125 && d > 32;
        d = text.charCodeAt(++i)
      );
    }
  }
  value()
  return dups
}
