// The Worker as `wrangler deploy` would upload it: `wrangler deploy --dry-run --outdir <tmp>` (offline, no login) must
// build it without a warning, and it must fit the platform's Worker size limits. The measured size is reported.
//
// Limits (checked 2026-11-24):
// - 64 MiB uncompressed, on every plan: Cloudflare removed the compressed-size limits on 2026-09-04 (changelog
//   "increased worker size limit", cloudflare-docs#33241); wrangler 4.155's bundle reporter measures against it.
// - 3 MB after gzip: the Free plan's former limit (Paid: 10 MB), kept here as our budget: nothing in kubeflare needs
//   the Paid plan's room, and a bundle that grew past it would deserve a look whatever the platform allows now.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const localNode = join(root, 'node_modules', '.bin', 'node')
const node22 =
  Number(process.versions.node.split('.')[0]) >= 22 || !existsSync(localNode) ? process.execPath : localNode

const UNCOMPRESSED_LIMIT = 64 * 1024 * 1024
const GZIP_BUDGET = 3_000_000
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const kib = (n) => `${(n / 1024).toFixed(2)} KiB`

/** Every file of a directory tree, with its path relative to the top. */
function files(dir, prefix = '') {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? files(p, `${prefix}${name}/`) : [{ name: `${prefix}${name}`, path: p }]
  })
}

test('the Worker bundles without warnings and fits the size limits', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'kubeflare-bundle-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))
  const res = spawnSync(
    node22,
    [join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'deploy', '--dry-run', '--outdir', out],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    },
  )
  const output = `${res.stdout}${res.stderr}`.replace(ANSI, '') // wrangler colours its warnings whatever FORCE_COLOR says
  assert.equal(res.status, 0, `wrangler deploy --dry-run failed (the bundle does not build):\n${output}`)
  const warnings = output.split('\n').filter((l) => /\[WARNING\]/.test(l))
  assert.deepEqual(warnings, [], `wrangler warned:\n${output}`)

  // What would be uploaded: the modules, not the source map (not uploaded: upload_source_maps is off) or README.
  const modules = files(out).filter((f) => !f.name.endsWith('.map') && f.name !== 'README.md')
  assert.ok(modules.length > 0, `no module in ${out}`)
  const contents = modules.map((f) => readFileSync(f.path))
  const size = contents.reduce((n, c) => n + c.length, 0)
  const gzip = gzipSync(Buffer.concat(contents)).length // as wrangler measures it: one gzip over all modules
  const reported = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output)
  assert.ok(reported, `wrangler printed no "Total Upload" line:\n${output}`)
  assert.ok(Math.abs(Number(reported[1]) * 1024 - size) < 1024, `measured ${size} B, wrangler says ${reported[1]} KiB`)

  const report =
    `Worker bundle (${modules.map((f) => f.name).join(', ')}): ${kib(size)} ` +
    `(${((size / UNCOMPRESSED_LIMIT) * 100).toFixed(1)}% of the 64 MiB limit), gzip ${kib(gzip)} ` +
    `(${((gzip / GZIP_BUDGET) * 100).toFixed(1)}% of the 3 MB budget)`
  t.diagnostic(report)
  assert.ok(size <= UNCOMPRESSED_LIMIT, `the bundle is ${kib(size)}, over the platform's 64 MiB limit`)
  assert.ok(
    gzip <= GZIP_BUDGET,
    `the bundle is ${kib(gzip)} after gzip, over the 3 MB budget (the Free plan's former limit)`,
  )
})
