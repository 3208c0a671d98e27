// scripts/deploy.mjs against a stand-in wrangler (fake-wrangler.mjs) on a temporary copy of wrangler.toml: what it
// runs, in which order, what it hands over on stdin, what it writes, and that a second run changes nothing.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const fake = join(root, 'test', 'scripts', 'fake-wrangler.mjs')
const PLACEHOLDER = 'database_id = "00000000-0000-0000-0000-000000000000"'
const URL_RE = /^https:\/\/kubeflare\.example-sub\.workers\.dev$/
const localNode = join(root, 'node_modules', '.bin', 'node')
const node22 =
  Number(process.versions.node.split('.')[0]) >= 22 || !existsSync(localNode) ? process.execPath : localNode

const temps = []
after(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** A fresh project directory: a copy of wrangler.toml and an empty fake account. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'kubeflare-deploy-'))
  temps.push(dir)
  copyFileSync(join(root, 'wrangler.toml'), join(dir, 'wrangler.toml'))
  mkdirSync(join(dir, 'account'))
  return {
    dir,
    config: join(dir, 'wrangler.toml'),
    state: join(dir, 'account'),
    deployDir: join(dir, '.kubeflare-deploy'),
  }
}

function deploy(p, { args = [], env = {} } = {}) {
  const childEnv = { ...process.env, KUBEFLARE_WRANGLER: fake, FAKE_WRANGLER_STATE: p.state, ...env }
  for (const k of ['KUBEFLARE_TOKENS_FILE', 'FAKE_WRANGLER_FAIL', 'FAKE_WRANGLER_NO_WORKERS_DEV', 'INIT_CWD']) {
    if (!(k in env)) delete childEnv[k]
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'deploy.mjs'), '--config', p.config, ...args], {
      cwd: p.dir,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const calls = (p) =>
  existsSync(join(p.state, 'calls.jsonl'))
    ? readFileSync(join(p.state, 'calls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : []
const commands = (list) =>
  list.map((c) => c.args.filter((a, i) => a !== '--config' && c.args[i - 1] !== '--config').join(' '))
const account = (p) => JSON.parse(readFileSync(join(p.state, 'account.json'), 'utf8'))
const kubeconfigField = (text, key) => new RegExp(`^\\s*${key}: (.*)$`, 'm').exec(text)?.[1]

/** Neither secret, nor the admin token, nor the key's private scalar appears in any output or argument. */
function assertNoLeak(p, outputs) {
  const { secrets } = account(p)
  const jwk = JSON.parse(secrets.KUBEFLARE_SA_SIGNING_KEY)
  const token = secrets.KUBEFLARE_TOKENS.split(',')[0]
  const everything = [...outputs, ...calls(p).map((c) => c.args.join(' '))].join('\n')
  const aesKey = secrets.KUBEFLARE_ENCRYPTION_KEY.split(':')[1]
  for (const s of [secrets.KUBEFLARE_TOKENS, secrets.KUBEFLARE_SA_SIGNING_KEY, token, jwk.d, aesKey]) {
    assert.ok(!everything.includes(s), 'a secret value leaked into the output or a command line')
  }
}

describe('npm run deploy (against a stand-in wrangler)', () => {
  const p = project()
  const original = readFileSync(p.config, 'utf8')
  let first

  test('the first run creates the database, records its id, migrates, sets both secrets, deploys', async () => {
    first = await deploy(p)
    assert.equal(first.code, 0, first.stderr)
    const list = calls(p)
    assert.deepEqual(commands(list), [
      'd1 list --json',
      'd1 create kubeflare',
      'd1 migrations apply DB --remote',
      'secret put KUBEFLARE_TOKENS',
      'secret put KUBEFLARE_SA_SIGNING_KEY',
      'secret put KUBEFLARE_ENCRYPTION_KEY',
      'deploy',
    ])
    for (const c of list) assert.equal(c.args[c.args.indexOf('--config') + 1], p.config, 'every call names the config')
    assert.equal(list[2].ci, '1', 'migrations run non-interactively')

    // Only database_id changed, to the id the account gave the new database.
    const [db] = account(p).databases
    assert.equal(db.name, 'kubeflare')
    assert.equal(readFileSync(p.config, 'utf8'), original.replace(PLACEHOLDER, `database_id = "${db.uuid}"`))
    assert.ok(original.includes(PLACEHOLDER))
    assert.equal(account(p).applied[db.uuid], true)
    assert.equal(account(p).deployed, 1)
  })

  test('the secrets went over stdin: an admin token file and a P-256 private JWK', () => {
    const list = calls(p)
    const [tokensCall, keyCall] = list.filter((c) => c.args[0] === 'secret')
    assert.equal(tokensCall.stdinIsTTY, false)
    const tokens = tokensCall.stdin.trim()
    assert.match(tokens, /^[A-Za-z0-9_-]{32,},kubeflare-admin,[^,\n]+,system:masters$/)
    const jwk = JSON.parse(keyCall.stdin)
    assert.deepEqual(Object.keys(jwk).sort(), ['crv', 'd', 'kty', 'x', 'y'])
    assert.equal(jwk.kty, 'EC')
    assert.equal(jwk.crv, 'P-256')
    const priv = createPrivateKey({ key: jwk, format: 'jwk' })
    const sig = sign('sha256', Buffer.from('kubeflare'), priv)
    assert.ok(verify('sha256', Buffer.from('kubeflare'), createPublicKey(priv), sig))
    // Kept locally for the next run, private to the user.
    assert.equal(readFileSync(join(p.deployDir, 'tokens.csv'), 'utf8').trim(), tokens)
    assert.deepEqual(JSON.parse(readFileSync(join(p.deployDir, 'sa-signing-key.jwk'), 'utf8')), jwk)
    assert.equal(readFileSync(join(p.deployDir, 'tokens.csv')).length > 0, true)
  })

  test('the encryption key went over stdin: a named 32-byte AES key, kept for the next run', () => {
    const encCall = calls(p).find((c) => c.args[0] === 'secret' && c.args.includes('KUBEFLARE_ENCRYPTION_KEY'))
    assert.equal(encCall.stdinIsTTY, false)
    const [name, key] = encCall.stdin.trim().split(':')
    assert.equal(name, 'key1')
    assert.equal(Buffer.from(key, 'base64').length, 32)
    assert.equal(readFileSync(join(p.deployDir, 'encryption-key'), 'utf8').trim(), encCall.stdin.trim())
  })

  test('it writes a kubeconfig for the workers.dev URL with the admin token and prints its path', () => {
    const file = first.stdout.trim()
    assert.equal(file, join(p.deployDir, 'kubeconfig.yaml'))
    const kc = readFileSync(file, 'utf8')
    assert.match(kubeconfigField(kc, 'server'), URL_RE)
    assert.equal(kubeconfigField(kc, 'token'), account(p).secrets.KUBEFLARE_TOKENS.split(',')[0])
    assert.ok(!kc.includes('certificate-authority'), 'no CA data: the edge has a public certificate')
    assert.ok(!kc.includes('insecure-skip-tls-verify'))
    assert.match(first.stderr, /kubeconfig \(the admin token\): .*kubeconfig\.yaml/)
  })

  test('no secret value appears in its output or on a command line', () => {
    assertNoLeak(p, [first.stdout, first.stderr])
  })

  test("the kubeconfig's token authenticates to the Worker given that KUBEFLARE_TOKENS", async () => {
    const token = kubeconfigField(readFileSync(first.stdout.trim(), 'utf8'), 'token')
    const tokensFile = join(p.dir, 'uploaded-tokens.csv')
    writeFileSync(tokensFile, account(p).secrets.KUBEFLARE_TOKENS)
    await withLocalServer(tokensFile, async (url) => {
      const get = (auth) =>
        fetch(`${url}/api/v1/namespaces`, { headers: auth ? { authorization: `Bearer ${auth}` } : {} })
      const ok = await get(token)
      const body = await ok.text()
      assert.equal(ok.status, 200, body)
      assert.equal(JSON.parse(body).kind, 'NamespaceList')
      const wrong = await get(`${token.slice(0, -2)}xx`)
      assert.equal(wrong.status, 401)
      await wrong.arrayBuffer()
    })
  })

  test('a second run reuses everything: no new database, the same token and key, the same file', async () => {
    const before = calls(p).length
    const tomlBefore = readFileSync(p.config, 'utf8')
    const secretsBefore = account(p).secrets
    const kcBefore = readFileSync(join(p.deployDir, 'kubeconfig.yaml'), 'utf8')
    const second = await deploy(p)
    assert.equal(second.code, 0, second.stderr)
    const list = calls(p).slice(before)
    assert.deepEqual(commands(list), [
      'd1 list --json',
      'd1 migrations apply DB --remote',
      'secret put KUBEFLARE_TOKENS',
      'secret put KUBEFLARE_SA_SIGNING_KEY',
      'secret put KUBEFLARE_ENCRYPTION_KEY',
      'deploy',
    ])
    assert.equal(account(p).databases.length, 1)
    assert.equal(readFileSync(p.config, 'utf8'), tomlBefore)
    assert.deepEqual(account(p).secrets, secretsBefore)
    assert.equal(readFileSync(join(p.deployDir, 'kubeconfig.yaml'), 'utf8'), kcBefore)
    assert.match(second.stderr, /D1 database .* exists/)
    assertNoLeak(p, [second.stdout, second.stderr])
  })
})

describe('npm run deploy: failures and options', () => {
  for (const [failing, step, ran] of [
    ['d1 list', 'D1 database', ['d1 list --json']],
    ['d1 create', 'D1 database', ['d1 list --json', 'd1 create kubeflare']],
    [
      'd1 migrations apply',
      'D1 migrations',
      ['d1 list --json', 'd1 create kubeflare', 'd1 migrations apply DB --remote'],
    ],
    [
      'secret put',
      'secrets',
      ['d1 list --json', 'd1 create kubeflare', 'd1 migrations apply DB --remote', 'secret put KUBEFLARE_TOKENS'],
    ],
    [
      'deploy',
      'deploy',
      [
        'd1 list --json',
        'd1 create kubeflare',
        'd1 migrations apply DB --remote',
        'secret put KUBEFLARE_TOKENS',
        'secret put KUBEFLARE_SA_SIGNING_KEY',
        'secret put KUBEFLARE_ENCRYPTION_KEY',
        'deploy',
      ],
    ],
  ]) {
    test(`a failing \`wrangler ${failing}\` stops at step "${step}" with a non-zero exit`, async () => {
      const p = project()
      const original = readFileSync(p.config, 'utf8')
      const res = await deploy(p, { env: { FAKE_WRANGLER_FAIL: failing } })
      assert.notEqual(res.code, 0)
      assert.match(res.stderr, new RegExp(`deploy failed at step "${step}": \`wrangler ${failing}`))
      assert.match(res.stderr, /Authentication error/, "wrangler's own message is shown")
      assert.match(res.stderr, /run `npm run deploy` again/)
      assert.deepEqual(commands(calls(p)), ran)
      assert.equal(res.stdout, '')
      // The config is the original (nothing created yet) or has exactly the new id: never anything in between.
      const toml = readFileSync(p.config, 'utf8')
      const db = existsSync(join(p.state, 'account.json')) ? account(p).databases[0] : undefined
      assert.equal(toml, db ? original.replace(PLACEHOLDER, `database_id = "${db.uuid}"`) : original)
      // Re-running after the cause is gone finishes the job without a second database.
      const retry = await deploy(p)
      assert.equal(retry.code, 0, retry.stderr)
      assert.equal(account(p).databases.length, 1)
    })
  }

  test('an existing database of that name is found, not created again', async () => {
    const p = project()
    writeFileSync(
      join(p.state, 'account.json'),
      JSON.stringify({
        databases: [{ uuid: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', name: 'kubeflare' }],
        applied: {},
        secrets: {},
        deployed: 0,
      }),
    )
    const res = await deploy(p)
    assert.equal(res.code, 0, res.stderr)
    assert.ok(!commands(calls(p)).includes('d1 create kubeflare'))
    assert.match(readFileSync(p.config, 'utf8'), /database_id = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"/)
  })

  test('a database_id of another account is refused before anything is created', async () => {
    const p = project()
    const other = readFileSync(p.config, 'utf8').replace(
      PLACEHOLDER,
      'database_id = "11111111-2222-4333-8444-555555555555"',
    )
    writeFileSync(p.config, other)
    const res = await deploy(p)
    assert.notEqual(res.code, 0)
    assert.match(res.stderr, /database_id 11111111-2222-4333-8444-555555555555 .* is not a D1 database of this account/)
    assert.deepEqual(commands(calls(p)), ['d1 list --json'])
    assert.equal(readFileSync(p.config, 'utf8'), other)
  })

  test('without a workers.dev URL it asks for --url; with --url the kubeconfig points there', async () => {
    const p = project()
    const res = await deploy(p, { env: { FAKE_WRANGLER_NO_WORKERS_DEV: '1' } })
    assert.notEqual(res.code, 0)
    assert.match(res.stderr, /step "deploy".*printed no workers\.dev URL.*--url/s)
    const withUrl = await deploy(p, {
      args: ['--url', 'https://k8s.example.com'],
      env: { FAKE_WRANGLER_NO_WORKERS_DEV: '1' },
    })
    assert.equal(withUrl.code, 0, withUrl.stderr)
    assert.equal(kubeconfigField(readFileSync(withUrl.stdout.trim(), 'utf8'), 'server'), 'https://k8s.example.com')
  })

  test('KUBEFLARE_TOKENS_FILE is uploaded as it is, and its first system:masters token goes into the kubeconfig', async () => {
    const p = project()
    const file = join(p.dir, 'tokens.csv')
    const text =
      'viewer-token-0123456789abcdef,alice,alice-uid,viewers\nadmin-token-0123456789abcdef,root,root-uid,"system:masters,ops"\n'
    writeFileSync(file, text)
    const res = await deploy(p, { env: { KUBEFLARE_TOKENS_FILE: file } })
    assert.equal(res.code, 0, res.stderr)
    assert.equal(account(p).secrets.KUBEFLARE_TOKENS, text.trim())
    assert.equal(kubeconfigField(readFileSync(res.stdout.trim(), 'utf8'), 'token'), 'admin-token-0123456789abcdef')
    assert.ok(!existsSync(join(p.deployDir, 'tokens.csv')), 'no token is generated when a file is given')
    assertNoLeak(p, [res.stdout, res.stderr])
  })

  test('a missing KUBEFLARE_TOKENS_FILE stops before any wrangler call', async () => {
    const p = project()
    const res = await deploy(p, { env: { KUBEFLARE_TOKENS_FILE: join(p.dir, 'nope.csv') } })
    assert.notEqual(res.code, 0)
    assert.match(res.stderr, /step "credentials": could not read the token file/)
    assert.deepEqual(calls(p), [])
  })
})

// ---- a local Worker (npm start's way) serving the uploaded token file ------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

async function withLocalServer(tokensFile, fn) {
  const port = await freePort()
  const persist = mkdtempSync(join(tmpdir(), 'kubeflare-deploy-server-'))
  temps.push(persist)
  let log = ''
  const child = spawn(
    node22,
    [join(root, 'scripts', 'start.mjs'), '--port', String(port), '--persist-to', persist, '--local-protocol', 'http'],
    {
      cwd: root,
      detached: true, // its own process group: wrangler and workerd stop with it
      env: { ...process.env, KUBEFLARE_TOKENS_FILE: tokensFile, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  try {
    const deadline = Date.now() + 120_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the local server exited:\n${log}`)
      if (Date.now() > deadline) throw new Error(`the local server did not answer in 120 s:\n${log}`)
      try {
        const r = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) })
        await r.arrayBuffer()
        break
      } catch {
        await new Promise((r) => setTimeout(r, 300))
      }
    }
    await fn(url)
  } finally {
    await stopGroup(child.pid, exited)
  }
}

/** Whether any process of the group is left. */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

/** SIGTERM to the server's whole group (start.mjs, wrangler, workerd), SIGKILL to what is left after 10 s. */
async function stopGroup(pgid, exited) {
  try {
    process.kill(-pgid, 'SIGTERM')
  } catch {}
  const deadline = Date.now() + 10_000
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {}
  }
}
