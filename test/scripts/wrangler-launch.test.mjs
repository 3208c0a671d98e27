// scripts/wrangler-launch.mjs: npm start runs wrangler's CLI directly (no wrapper process) with Node's compile cache,
// falls back to wrangler's bin wrapper when the CLI is not where it was, and leaves a user's own cache setting alone.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { wranglerLaunch } from '../../scripts/wrangler-launch.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const localNode = join(root, 'node_modules', '.bin', 'node')
const node22 =
  Number(process.versions.node.split('.')[0]) >= 22 || !existsSync(localNode) ? process.execPath : localNode
const temps = []
after(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeflare-launch-'))
  temps.push(dir)
  return dir
}

test("the project's wrangler runs its CLI file directly, without warnings, with a compile cache under node_modules", () => {
  const l = wranglerLaunch(root, {})
  assert.deepEqual(l.prefix, ['--no-warnings', join(root, 'node_modules', 'wrangler', 'wrangler-dist', 'cli.js')])
  assert.equal(l.file, l.prefix[1])
  assert.ok(existsSync(l.file))
  assert.deepEqual(l.env, { NODE_COMPILE_CACHE: join(root, 'node_modules', '.cache', 'kubeflare-node-compile-cache') })
})

test('a wrangler without wrangler-dist/cli.js runs through its bin wrapper', () => {
  const dir = temp()
  mkdirSync(join(dir, 'node_modules', 'wrangler', 'bin'), { recursive: true })
  writeFileSync(join(dir, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), '')
  const l = wranglerLaunch(dir, {})
  assert.deepEqual(l.prefix, [join(dir, 'node_modules', 'wrangler', 'bin', 'wrangler.js')])
  assert.equal(l.file, l.prefix[0])
})

test("the user's NODE_COMPILE_CACHE, or NODE_DISABLE_COMPILE_CACHE, is left as it is", () => {
  assert.deepEqual(wranglerLaunch(root, { NODE_COMPILE_CACHE: '/elsewhere' }).env, {})
  assert.deepEqual(wranglerLaunch(root, { NODE_DISABLE_COMPILE_CACHE: '1' }).env, {})
})

test('the launch runs the real wrangler, which fills the compile cache', () => {
  const cache = temp()
  const l = wranglerLaunch(root, {})
  const res = spawnSync(node22, [...l.prefix, '--version'], {
    cwd: root,
    env: { ...process.env, ...l.env, NODE_COMPILE_CACHE: cache, WRANGLER_SEND_METRICS: 'false' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  assert.equal(res.status, 0, res.stderr)
  const version = JSON.parse(readFileSync(join(root, 'node_modules', 'wrangler', 'package.json'), 'utf8')).version
  assert.match(res.stdout, new RegExp(version.replaceAll('.', '\\.')))
  assert.doesNotMatch(res.stderr, /Warning/)
  const entries = readdirSync(cache, { recursive: true })
  assert.ok(entries.length > 0, 'the compile cache stays empty')
})
