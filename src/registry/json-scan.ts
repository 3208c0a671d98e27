// Finds duplicate object keys in JSON text (JSON.parse silently keeps the last one; kube's strict decoder reports them).

/** Paths of duplicated keys, printed like field paths: `spec.containers[0].image`. Assumes the text is valid JSON. */
export function duplicateFields(text: string): string[] {
  const dups: string[] = []
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const str = (): string => {
    const start = i
    i++ // opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
    return JSON.parse(text.slice(start, i)) as string
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
        const key = str()
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
      str()
    } else {
      while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++
    }
  }
  value('')
  return dups
}
