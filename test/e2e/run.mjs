#!/usr/bin/env node
// End-to-end harness (`npm run test:e2e`; last step of `npm test`).
//
// Starts the server the README way (`node scripts/start.mjs --port P --persist-to <fresh temp dir>`: HTTPS with its
// own CA, a token file of test users given through KUBEFLARE_TOKENS_FILE), waits for GET /version over TLS, runs
// `node --test test/e2e/*.test.mjs` with KUBEFLARE_URL, KUBECONFIG (the one start.mjs wrote: CA data and the admin
// token), KUBECTL_DIR, KUBEFLARE_TOKEN, KUBEFLARE_TEST_TOKENS and NODE_EXTRA_CA_CERTS set, stops the server's whole
// process group and exits with the tests' exit code. Extra arguments: test files (`*.test.mjs`) to run instead of all, anything else goes to `node --test`
// (e.g. `--test-name-pattern=delete`). KUBECTL_DIR may be preset; otherwise it is the directory of `kubectl` on PATH
// (symlinks resolved), where kubectl.1.27 … kubectl.1.33 live.
import { spawn } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { request as httpsRequest } from 'node:https'
import { freePort, groupAlive, nodeBin, root, sleep } from './server-process.mjs'

const e2eDir = join(root, 'test', 'e2e')
const READY_TIMEOUT_MS = 90_000
const say = (msg) => process.stderr.write(`[e2e] ${msg}\n`)

function findKubectlDir() {
  if (process.env.KUBECTL_DIR) return process.env.KUBECTL_DIR
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir || '.', 'kubectl')
    if (existsSync(p)) return dirname(realpathSync(p))
  }
  return ''
}

function tail(file, lines = 80) {
  try {
    const all = readFileSync(file, 'utf8').split('\n')
    return all.slice(-lines).join('\n')
  } catch (e) {
    return `(cannot read ${file}: ${e.message})`
  }
}

/** Whether GET /version answers 200 over TLS that trusts only the server's own CA. */
function versionAnswers(base, ca) {
  return new Promise((resolvePromise) => {
    const req = httpsRequest(`${base}/version`, { ca, timeout: 2000 }, (res) => {
      res.resume()
      res.on('end', () => resolvePromise(res.statusCode === 200))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolvePromise(false))
    req.end()
  })
}

let server = null
let stopped = false
let stopping = null
// Idempotent; every caller waits for the same shutdown.
function stopServer() {
  if (!server) return Promise.resolve()
  stopping ??= doStopServer()
  return stopping
}
async function doStopServer() {
  const pgid = server.pid
  const signalGroup = (sig) => {
    try {
      process.kill(-pgid, sig)
    } catch {}
  }
  const t0 = Date.now()
  // The whole group: start.mjs, wrangler's two node processes, esbuild and both workerd processes.
  signalGroup('SIGTERM')
  for (let i = 0; i < 100 && groupAlive(pgid); i++) await sleep(100)
  if (groupAlive(pgid)) {
    say(`server process group ${pgid} still alive after ${((Date.now() - t0) / 1000).toFixed(1)} s: SIGKILL`)
    signalGroup('SIGKILL')
    for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100)
  }
  if (groupAlive(pgid)) say(`WARNING: server process group ${pgid} is still alive`)
  else say(`server stopped (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
  stopped = true
}
// Last resort if we exit some other way.
process.on('exit', () => {
  if (server && !stopped) {
    try {
      process.kill(-server.pid, 'SIGKILL')
    } catch {}
  }
})

let testChild = null
let interrupted = false
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, async () => {
    if (interrupted) return
    interrupted = true
    say(`${sig}: stopping`)
    try {
      testChild?.kill(sig)
    } catch {}
    await stopServer()
    process.exit(130)
  })
}

// ---------------------------------------------------------------------------------------------------------------------

const extra = process.argv.slice(2)
const fileArgs = extra.filter((a) => a.endsWith('.test.mjs'))
const testFlags = extra.filter((a) => !a.endsWith('.test.mjs'))
const testFiles = fileArgs.length
  ? fileArgs.map((f) => relative(root, resolve(f)))
  : readdirSync(e2eDir)
      .filter((f) => f.endsWith('.test.mjs'))
      .sort()
      .map((f) => relative(root, join(e2eDir, f)))
if (testFiles.length === 0) {
  say('no test/e2e/*.test.mjs files')
  process.exit(1)
}

const kubectlDir = findKubectlDir()
if (!kubectlDir) say('WARNING: kubectl not found on PATH and KUBECTL_DIR unset: the kubectl tests will fail')

const tmp = mkdtempSync(join(tmpdir(), 'kubeflare-e2e-'))
const persistDir = join(tmp, 'state')
const logFile = join(tmp, 'server.log')
const port = await freePort()
// The server runs as users run it: HTTPS with the CA and tokens `npm start` makes, the users below in its token file.
const url = `https://127.0.0.1:${port}`
const tokens = {
  admin: randomBytes(18).toString('base64url'),
  alice: randomBytes(18).toString('base64url'),
  bob: randomBytes(18).toString('base64url'),
  // The node agent's own identity (kube's Node authorizer and NodeRestriction judge it): node e2e-agent.
  node: randomBytes(18).toString('base64url'),
}
const tokensFile = join(tmp, 'tokens.csv')
writeFileSync(
  tokensFile,
  [
    `${tokens.admin},e2e-admin,uid-e2e-admin,"system:masters"`,
    `${tokens.alice},alice,uid-alice,"team-a-devs"`,
    `${tokens.bob},bob,uid-bob`,
    `${tokens.node},system:node:e2e-agent,uid-e2e-agent,"system:nodes"`,
    '',
  ].join('\n'),
)
const credentialsDir = join(persistDir, 'kubeflare')
const kubeconfigFile = join(credentialsDir, 'kubeconfig.yaml')
const caFile = join(credentialsDir, 'ca.crt')

say(`node: ${nodeBin === process.execPath ? `${nodeBin} (${process.version})` : nodeBin}; temp dir: ${tmp}`)
// Three virtual nodes: the tests were written against them (330 pods of room), fewer than a server's default.
say(`starting server: node scripts/start.mjs --port ${port} --persist-to ${persistDir} --nodes 3 (log: ${logFile})`)
const logFd = openSync(logFile, 'a')
server = spawn(nodeBin, ['scripts/start.mjs', '--port', String(port), '--persist-to', persistDir, '--nodes', '3'], {
  cwd: root,
  detached: true, // own process group: wrangler's node + workerd children all go with `kill -pgid`
  stdio: ['ignore', logFd, logFd],
  env: { ...process.env, FORCE_COLOR: '0', KUBEFLARE_TOKENS_FILE: tokensFile },
})
closeSync(logFd)
let serverExit = null
server.on('exit', (code, signal) => (serverExit = { code, signal }))

async function fail(msg) {
  if (interrupted) return new Promise(() => {}) // the signal handler is shutting down and will exit
  say(msg)
  await stopServer()
  process.stderr.write(`----- server log tail (${logFile}) -----\n${tail(logFile)}\n-----\n`)
  process.exit(1)
}

// Wait for GET /version.
const t0 = Date.now()
for (;;) {
  if (serverExit) await fail(`server exited before it was ready (${serverExit.code ?? serverExit.signal})`)
  if (Date.now() - t0 > READY_TIMEOUT_MS) await fail(`server not ready after ${READY_TIMEOUT_MS / 1000} s`)
  // wrangler dev stays up after a failed build (waiting for an edit that will not come here): fail fast instead.
  const fatal = /Build failed|The Workers runtime failed to start/.exec(readFileSync(logFile, 'utf8'))
  if (fatal) await fail(`server failed to start: "${fatal[0]}"`)
  if (existsSync(caFile) && (await versionAnswers(url, readFileSync(caFile)))) break
  await sleep(250)
}
say(`server ready on ${url} after ${((Date.now() - t0) / 1000).toFixed(1)} s`)

const testArgs = [
  '--test',
  '--test-concurrency=1',
  '--test-reporter=spec',
  '--test-timeout=300000',
  ...testFlags,
  ...testFiles,
]
say(`running: node ${testArgs.join(' ')}`)
const code = await new Promise((resolve) => {
  testChild = spawn(nodeBin, testArgs, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      KUBEFLARE_URL: url,
      KUBECONFIG: kubeconfigFile,
      KUBECTL_DIR: kubectlDir,
      // The admin token the tests' own requests carry, and the other users' for identity tests.
      KUBEFLARE_TOKEN: tokens.admin,
      KUBEFLARE_TEST_TOKENS: JSON.stringify(tokens),
      // Node's fetch in the tests trusts the server's CA as kubectl and the clients do (through the kubeconfig).
      NODE_EXTRA_CA_CERTS: caFile,
      // What the server prints (wrangler dev's output: the audit log among it).
      KUBEFLARE_SERVER_LOG: logFile,
    },
  })
  testChild.on('error', (e) => {
    say(`cannot run node --test: ${e.message}`)
    resolve(1)
  })
  testChild.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0)))
})
testChild = null

if (serverExit) say(`server died during the tests (${serverExit.code ?? serverExit.signal})`)
await stopServer()

if (code !== 0) {
  process.stderr.write(`----- server log tail (${logFile}) -----\n${tail(logFile)}\n-----\n`)
  say(`FAILED (node --test exit ${code}); server state and log kept in ${tmp}`)
} else {
  rmSync(tmp, { recursive: true, force: true })
  say('all e2e tests passed')
}
process.exit(code)
