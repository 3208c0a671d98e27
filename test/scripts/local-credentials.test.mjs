// scripts/local-credentials.mjs: the first start makes a CA and a server certificate for the loopback names and
// keeps them; a later start reuses everything and never loads node-forge (100-150 ms of every start otherwise).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureLocalCredentials } from '../../scripts/local-credentials.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const state = mkdtempSync(join(tmpdir(), 'kubeflare-credentials-'))
after(() => rmSync(state, { recursive: true, force: true }))
const opts = { server: 'https://127.0.0.1:8787', https: true, allowedHosts: ['127.0.0.1'] }

test('a fresh state directory gets a CA and a server certificate it signed, for 127.0.0.1, ::1 and localhost', () => {
  const c = ensureLocalCredentials(state, opts)
  const ca = new X509Certificate(readFileSync(c.tls.caCert))
  const server = new X509Certificate(readFileSync(c.tls.cert))
  assert.equal(ca.ca, true)
  assert.equal(server.ca, false)
  assert.ok(server.verify(ca.publicKey))
  assert.ok(server.checkIP('127.0.0.1'))
  assert.ok(server.checkIP('::1'))
  assert.equal(server.checkHost('localhost'), 'localhost')
  assert.ok(existsSync(c.tls.key))
  assert.match(readFileSync(c.kubeconfigFile, 'utf8'), new RegExp(`token: ${c.adminToken}`))
})

test('a second start keeps the certificates and the token, without loading node-forge', () => {
  const before = readFileSync(join(state, 'kubeflare', 'server.crt'), 'utf8')
  const token = readFileSync(join(state, 'kubeflare', 'tokens.csv'), 'utf8')
  const script = `
    import { createRequire } from 'node:module'
    const { ensureLocalCredentials } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts', 'local-credentials.mjs')).href)})
    ensureLocalCredentials(${JSON.stringify(state)}, ${JSON.stringify(opts)})
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('node-forge'))
    console.log(JSON.stringify(loaded))`
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  assert.equal(res.status, 0, res.stderr)
  assert.deepEqual(JSON.parse(res.stdout), [])
  assert.equal(readFileSync(join(state, 'kubeflare', 'server.crt'), 'utf8'), before)
  assert.equal(readFileSync(join(state, 'kubeflare', 'tokens.csv'), 'utf8'), token)
})

test('the private keys are readable by their owner only, also when a CA is made again over an old key file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeflare-credentials-modes-'))
  try {
    const c = ensureLocalCredentials(dir, opts)
    const mode = (f) => statSync(f).mode & 0o777
    assert.equal(mode(c.tls.caKey), 0o600)
    assert.equal(mode(c.tls.key), 0o600)
    // A CA made again (its server key gone) over a key file someone opened up.
    chmodSync(c.tls.caKey, 0o644)
    unlinkSync(c.tls.key)
    const again = ensureLocalCredentials(dir, opts)
    assert.equal(mode(again.tls.caKey), 0o600)
    assert.equal(mode(again.tls.key), 0o600)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
