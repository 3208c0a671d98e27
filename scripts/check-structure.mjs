#!/usr/bin/env node
// `npm run lint`'s structure check over src/: no export that nothing imports (dead code grows from them), no import
// cycle (layers must read in one direction), and a report of files over 300 lines and functions over 60 (a habit, not
// a gate: they are listed, not failed). Built-ins only: a regex reading of our own import/export style is enough.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : []
  })
}

const files = walk(src)
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))
/** Test files count as users of an export only for the in-memory twins and helpers tests are built on. */
const testFiles = walk(join(root, 'test')).filter((f) => f.endsWith('.ts'))

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g
function importsOf(file) {
  const out = []
  for (const m of text.get(file).matchAll(IMPORT)) {
    const target = resolve(dirname(file), m[2])
    const withExt = target.endsWith('.ts') ? target : `${target}.ts`
    if (text.has(withExt)) out.push({ target: withExt, typeOnly: Boolean(m[1]) })
  }
  return out
}

// ---- import cycles (value and type imports alike: a cycle of types is still a tangle of concepts) ----------------
const graph = new Map(files.map((f) => [f, importsOf(f).map((i) => i.target)]))
const cycles = []
const state = new Map()
function visit(f, stack) {
  state.set(f, 'open')
  stack.push(f)
  for (const t of graph.get(f)) {
    if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t])
    else if (!state.has(t)) visit(t, stack)
  }
  stack.pop()
  state.set(f, 'done')
}
for (const f of files) if (!state.has(f)) visit(f, [])

// ---- dead exports --------------------------------------------------------------------------------------------
const EXPORT =
  /export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function|class|interface|type|enum|abstract class)\s+([A-Za-z_$][\w$]*)/g
const entry = join(src, 'index.ts')
const dead = []
for (const f of files) {
  if (f === entry) continue
  for (const m of text.get(f).matchAll(EXPORT)) {
    const name = m[1]
    const used = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`)
    const elsewhere = [...files, ...testFiles].some(
      (g) => g !== f && used.test(g.endsWith('.ts') && text.has(g) ? text.get(g) : readFileSync(g, 'utf8')),
    )
    if (!elsewhere) dead.push(`${relative(root, f)}: ${name}`)
  }
}

// ---- sizes (reported only) ----------------------------------------------------------------------------------
const long = files.map((f) => [relative(root, f), text.get(f).split('\n').length]).filter(([, n]) => n > 300)

let failed = false
if (cycles.length > 0) {
  failed = true
  console.error(`import cycles (${cycles.length}):`)
  for (const c of cycles) console.error(`  ${c.map((f) => relative(src, f)).join(' -> ')}`)
}
if (dead.length > 0) {
  failed = true
  console.error(`exports nothing imports (${dead.length}):`)
  for (const d of dead) console.error(`  ${d}`)
}
if (long.length > 0)
  console.log(`files over 300 lines (a habit, not a gate): ${long.map(([f, n]) => `${f} (${n})`).join(', ')}`)
if (failed) process.exit(1)
console.log(`structure: ${files.length} files, no import cycles, no dead exports`)
