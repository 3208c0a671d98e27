// Generates src/registry/decoding/go-json-fields.ts: every struct field of the Go types our kinds decode into, by
// JSON name, with whether its tag says omitempty and what encoding/json's omitempty sees of it (pointer, slice, map,
// string, bool, number, struct, interface), read from kube 1.33's Go sources in the local mirrors. kube stores what
// encoding/json writes back, so the decoder drops an omitempty field holding its empty value (go-omit-empty.ts).
//   node scripts/go-json-fields.mjs          writes the module
//   node scripts/go-json-fields.mjs --check  exits 1 when the committed module differs from what it would write
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BRANCH = 'release-1.33'
export const MIRRORS = process.env.KUBE_MIRRORS ?? '/work/.mirror'
export const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'src/registry/decoding/go-json-fields.ts')

/** The Go files read, by mirror; packages whose types our kinds use (structs, or named types underneath fields). */
const SOURCES = {
  'kubernetes+apimachinery': [
    'pkg/apis/meta/v1/types.go',
    'pkg/apis/meta/v1/time.go',
    'pkg/apis/meta/v1/micro_time.go',
    'pkg/apis/meta/v1/duration.go',
    'pkg/types/uid.go',
    'pkg/types/nodename.go',
  ],
  'kubernetes+api': [
    'core/v1/types.go',
    'apps/v1/types.go',
    'batch/v1/types.go',
    'autoscaling/v1/types.go',
    'autoscaling/v2/types.go',
    'discovery/v1/types.go',
    'coordination/v1/types.go',
    'networking/v1/types.go',
    'policy/v1/types.go',
    'rbac/v1/types.go',
    'scheduling/v1/types.go',
    // Only StorageClass: storage/v1 declares a TokenRequest of its own (CSIDriver's).
    'storage/v1/types.go#StorageClass,StorageClassList',
    'authentication/v1/types.go',
    'authorization/v1/types.go',
  ],
  'kubernetes+apiextensions-apiserver': [
    'pkg/apis/apiextensions/v1/types.go',
    'pkg/apis/apiextensions/v1/types_jsonschema.go',
  ],
}

const SCALARS = {
  string: 'string',
  bool: 'bool',
  byte: 'number',
  rune: 'number',
  int: 'number',
  int8: 'number',
  int16: 'number',
  int32: 'number',
  int64: 'number',
  uint: 'number',
  uint8: 'number',
  uint16: 'number',
  uint32: 'number',
  uint64: 'number',
  float32: 'number',
  float64: 'number',
}

const readGo = (mirror, path) =>
  execFileSync('git', ['-C', join(MIRRORS, mirror, 'repo'), 'show', `${BRANCH}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })

const bare = (name) => name.slice(name.lastIndexOf('.') + 1)

/** Structs (their field lines) and named non-struct types (their underlying type) of one Go file. */
function parseFile(text, structs, named) {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^type (\w+) struct \{\s*$/.exec(lines[i])
    if (open) {
      const fields = []
      let depth = 1
      for (i++; i < lines.length && depth > 0; i++) {
        const line = lines[i].replace(/\/\/.*$/, '').trim()
        if (line === '') continue
        if (line.endsWith('{')) depth++
        if (line.startsWith('}')) depth--
        if (depth !== 1 || line.startsWith('}')) continue
        fields.push(line)
      }
      i--
      structs.set(open[1], fields)
      continue
    }
    const alias = /^type (\w+) (=\s*)?(\S.*?)\s*$/.exec(lines[i])
    if (alias && !alias[3].startsWith('struct') && !alias[3].startsWith('interface')) named.set(alias[1], alias[3])
  }
}

/** What encoding/json's omitempty sees of a Go type expression. */
function kindOf(type, named) {
  if (type.startsWith('*')) return 'pointer'
  if (type.startsWith('[]')) return 'slice'
  if (type.startsWith('map[')) return 'map'
  if (type === 'interface{}' || type === 'any') return 'interface'
  if (SCALARS[type]) return SCALARS[type]
  const underlying = named.get(bare(type))
  return underlying ? kindOf(underlying, named) : 'struct'
}

/** One struct's fields by JSON name, embedded structs' fields promoted (encoding/json's rule for untagged names). */
function fieldsOf(name, structs, named, seen = new Set()) {
  const out = {}
  if (seen.has(name)) return out
  seen.add(name)
  for (const line of structs.get(name) ?? []) {
    const m = /^(?:(\w+)\s+)?([^\s`]\S*)\s*(?:`(.*)`)?$/.exec(line)
    if (!m) continue
    const [, field, type, tags = ''] = m
    const json = /json:"([^"]*)"/.exec(tags)?.[1]
    if (json === '-') continue
    const [tagName = '', ...options] = (json ?? '').split(',')
    if (!field) {
      // An embedded struct: promoted when its tag gives no name, else a field named by the tag.
      if (tagName === '') {
        Object.assign(out, fieldsOf(bare(type.replace(/^\*/, '')), structs, named, seen))
        continue
      }
    }
    const goName = field ?? bare(type.replace(/^\*/, ''))
    if (!/^[A-Z]/.test(goName)) continue
    const kind = kindOf(type, named)
    out[tagName || goName] = options.includes('omitempty') ? `${kind},omitempty` : kind
  }
  return out
}

/** The module's text. */
export function generate() {
  const tables = new Map()
  const named = new Map()
  const perFile = []
  for (const [mirror, paths] of Object.entries(SOURCES)) {
    for (const entry of paths) {
      // `<file>#A,B`: only the structs A and B of the file.
      const [path, only] = entry.split('#')
      const structs = new Map()
      parseFile(readGo(mirror, path), structs, named)
      if (only) for (const k of [...structs.keys()]) if (!only.split(',').includes(k)) structs.delete(k)
      perFile.push({ pkg: path.slice(0, path.lastIndexOf('/')).replace(/^pkg\/apis\//, ''), structs })
    }
  }
  const allStructs = new Map()
  for (const { structs } of perFile) for (const [k, v] of structs) if (!allStructs.has(k)) allStructs.set(k, v)
  // Keyed by the bare struct name, what the decoder's Go types know; a name two packages declare differently is
  // kept once per package under `<package path>.<Struct>` instead (see go-omit-empty.ts for how it is read).
  const seen = new Map()
  for (const { pkg, structs } of perFile) {
    for (const name of structs.keys()) {
      const fields = fieldsOf(name, new Map([...allStructs, ...structs]), named)
      if (Object.keys(fields).length === 0) continue
      const list = seen.get(name) ?? []
      if (!list.some((e) => JSON.stringify(e.fields) === JSON.stringify(fields))) list.push({ pkg, fields })
      seen.set(name, list)
    }
  }
  for (const [name, list] of seen) {
    if (list.length === 1) tables.set(name, list[0])
    else for (const e of list) tables.set(`${e.pkg}.${name}`, e)
  }
  // Written as biome formats it (single quotes, keys quoted only where they must be), so lint leaves it alone.
  const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`)
  const body = [...tables.keys()]
    .sort()
    .map((name) => {
      const fields = Object.entries(tables.get(name).fields)
        .map(([k, v]) => `    ${key(k)}: '${v}',`)
        .join('\n')
      return `  ${key(name)}: {\n${fields}\n  },`
    })
    .join('\n')
  return `// Generated by scripts/go-json-fields.mjs from kube 1.33's Go types (k8s.io/api, apimachinery meta/v1,
// apiextensions v1): every struct's fields by JSON name, as 'kind' or 'kind,omitempty', kind being what encoding/json's
// omitempty sees of the Go type (pointer, slice, map, string, bool, number, struct, interface). Do not edit by hand.
export const GO_JSON_FIELDS: Record<string, Record<string, string>> = {
${body}
}
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generate()
  if (process.argv.includes('--check')) {
    if (readFileSync(OUTPUT, 'utf8') !== text) {
      console.error(`${OUTPUT} is out of date: run node scripts/go-json-fields.mjs`)
      process.exit(1)
    }
  } else writeFileSync(OUTPUT, text)
}
