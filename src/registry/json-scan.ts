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
  // Containers open and close through an explicit stack (bodies nest as deep as Go's 10000 levels, past what
  // recursion can take here): each frame is an object's keys seen so far, or an array's next index.
  type Frame = { obj: true; first: string | null; seen: Set<string> | null } | { obj: false; n: number }
  const frames: Frame[] = []
  /** After a value: closes every container that ends here; answers whether the scan is done. */
  const close = (): boolean => {
    for (;;) {
      const top = frames[frames.length - 1]
      // The end of the text ends the scan whatever is open (the text is valid JSON; this only guards the loop).
      if (!top || i >= text.length) return true
      path.pop()
      ws()
      const c = text.charCodeAt(i++)
      if (c === (top.obj ? 125 : 93)) {
        frames.pop()
        continue
      }
      // A comma: the container's next member.
      if (top.obj) key(top)
      else path.push(++top.n)
      return false
    }
  }
  const key = (frame: Extract<Frame, { obj: true }>) => {
    ws()
    const k = str(true)
    // Most objects have a handful of keys; a Set is made only for the second one on.
    if (frame.first === null) frame.first = k
    else {
      frame.seen ??= new Set([frame.first])
      if (frame.seen.has(k)) dups.push(printed(k))
      frame.seen.add(k)
    }
    ws()
    i++ // colon
    path.push(k)
  }
  for (;;) {
    ws()
    const c = text.charCodeAt(i)
    if (c === 123 /* { */ || c === 91 /* [ */) {
      i++
      ws()
      if (text.charCodeAt(i) === (c === 123 ? 125 : 93)) i++
      else if (c === 123) {
        const frame: Frame = { obj: true, first: null, seen: null }
        frames.push(frame)
        key(frame)
        continue
      } else {
        frames.push({ obj: false, n: 0 })
        path.push(0)
        continue
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
    if (close()) break
  }
  return dups
}
