// What the bench's Miniflare needs from the project's own files: wrangler.toml's compatibility settings and vars, and
// the D1 migrations as statements D1's exec takes.

export function parseWranglerToml(text) {
  const out = { compatibilityDate: undefined, compatibilityFlags: [], vars: {} }
  let section = ''
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim()
    if (!line) continue
    const sec = line.match(/^\[\[?([^\]]+)\]\]?$/)
    if (sec) {
      section = sec[1].trim()
      continue
    }
    const kv = line.match(/^([A-Za-z0-9_-]+)\s*=\s*(.+)$/)
    if (!kv) continue
    const [, key, value] = kv
    if (section === '' && key === 'compatibility_date') out.compatibilityDate = JSON.parse(value)
    if (section === '' && key === 'compatibility_flags') out.compatibilityFlags = JSON.parse(value)
    if (section === 'vars') out.vars[key] = value.startsWith('"') ? JSON.parse(value) : value
  }
  return out
}

/** A migration file as single-line statements (D1's exec splits on newlines); a trigger's body stays whole. */
export function migrationStatements(sql) {
  const out = []
  let open = ''
  for (const part of sql
    .split('\n')
    .map((l) => l.replace(/--.*$/, '').trim())
    .filter(Boolean)
    .join(' ')
    .split(';')) {
    const piece = part.trim()
    if (!piece && !open) continue
    open = open ? `${open}; ${piece}` : piece
    if (/^CREATE\s+TRIGGER\b/i.test(open) && !/\bEND$/i.test(open)) continue
    out.push(open)
    open = ''
  }
  if (open) out.push(open)
  return out
}
