// Requests without credentials. On the harness's server (kube's default, anonymous auth on) they are system:anonymous
// and get what RBAC grants that user: the public info endpoints, 403 with kube's body for the rest. This file also
// starts two servers of its own, each on a free port with a fresh state directory, killed (whole process group) at
// the end: one started with `--var KUBEFLARE_ANONYMOUS_AUTH:false`, where the same requests are 401 with kube's Status
// byte for byte; and one started with `--local-protocol http`, which still serves, anonymous rules applying to kubectl
// (client-go sends no token over plain http).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { kubeconfig } from '../../scripts/kubeconfig.mjs'
import { kubectl } from './helpers.mjs'
import { UNAUTHORIZED, forbidden, kubectlWith, raw } from './identity-helpers.mjs'
import { freePort, groupAlive, nodeBin, root, sleep } from './server-process.mjs'

const ANONYMOUS_PODS = `${JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: forbidden('system:anonymous', 'list', 'pods'),
  reason: 'Forbidden',
  details: { kind: 'pods' },
  code: 403,
})}\n`
const pathForbidden = (path) =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"${path}\\"","reason":"Forbidden","details":{},"code":403}\n`

const harnessCa = () => readFileSync(process.env.NODE_EXTRA_CA_CERTS).toString('base64')
const ADMIN = randomBytes(18).toString('base64url')
const servers = []
const killAll = () => {
  for (const s of servers) {
    try {
      process.kill(-s.pid, 'SIGKILL')
    } catch {}
  }
}
process.on('exit', killAll)

/** GET over https trusting only `ca`, or plain http: {status, headers, text}. */
function get(url, { ca, headers = {} } = {}) {
  if (!ca) {
    return fetch(url, { headers, signal: AbortSignal.timeout(10_000) }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      text: await r.text(),
    }))
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers, timeout: 10_000 }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}

/** `node scripts/start.mjs` with these extra arguments, in its own process group; resolves once it answers. */
async function startServer(name, args, https) {
  const dir = mkdtempSync(join(tmpdir(), `kubeflare-${name}-`))
  const port = await freePort()
  const url = `${https ? 'https' : 'http'}://127.0.0.1:${port}`
  const tokens = join(dir, 'tokens.csv')
  writeFileSync(tokens, `${ADMIN},anon-test-admin,uid-anon-admin,system:masters\n`)
  const log = join(dir, 'server.log')
  const fd = openSync(log, 'a')
  const argv = ['scripts/start.mjs', '--port', String(port), '--persist-to', join(dir, 'state'), ...args]
  const child = spawn(nodeBin, argv, {
    cwd: root,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, FORCE_COLOR: '0', KUBEFLARE_TOKENS_FILE: tokens },
  })
  closeSync(fd)
  const server = { url, dir, pid: child.pid, ca: undefined }
  servers.push(server)
  const caFile = join(dir, 'state', 'kubeflare', 'ca.crt')
  for (const t0 = Date.now(); Date.now() - t0 < 120_000; await sleep(300)) {
    if (child.exitCode !== null) break
    try {
      if (https) server.ca ??= readFileSync(caFile)
      // Any answer will do: with anonymous auth off even /version is 401.
      await get(`${url}/version`, { ca: server.ca })
      return server
    } catch {}
  }
  throw new Error(`${name} server did not start:\n${readFileSync(log, 'utf8').split('\n').slice(-30).join('\n')}`)
}

async function stop(server) {
  try {
    process.kill(-server.pid, 'SIGTERM')
  } catch {}
  for (let i = 0; i < 100 && groupAlive(server.pid); i++) await sleep(100)
  if (groupAlive(server.pid)) process.kill(-server.pid, 'SIGKILL')
  for (let i = 0; i < 50 && groupAlive(server.pid); i++) await sleep(100)
  assert.equal(groupAlive(server.pid), false, `server group ${server.pid} still alive`)
  rmSync(server.dir, { recursive: true, force: true })
}

let closed
let plain

/**
 * A kubeconfig with a user name and no password or token. With no credentials at all kubectl prompts for a user name
 * over https (and fails on a non-terminal stdin); a name alone makes it send `Authorization: Basic`, which kube's
 * bearer authenticator ignores: the request is as anonymous as one without the header.
 */
function basicKubeconfig(file, server, caData) {
  const text = kubeconfig({ server, caData })
  assert.ok(text.includes('  user: {}\n'))
  writeFileSync(file, text.replace('  user: {}\n', '  user:\n    username: nobody\n'))
  return file
}

before(async () => {
  // One after the other: two wrangler dev processes starting at once can pick the same internal port.
  closed = await startServer('anonymous-off', ['--var', 'KUBEFLARE_ANONYMOUS_AUTH:false'], true)
  plain = await startServer('plain-http', ['--local-protocol', 'http'], false)
})

after(async () => {
  await Promise.all(servers.map(stop))
})

describe('anonymous auth on (the harness server)', () => {
  it("GET /api/v1/pods without a token: 403 with kube's body", async () => {
    const r = await raw('/api/v1/pods')
    assert.equal(r.status, 403)
    assert.equal(r.headers.get('content-type'), 'application/json')
    assert.equal(r.text, ANONYMOUS_PODS)
  })

  it('the public info endpoints answer; discovery, OpenAPI, OIDC discovery and the review APIs do not', async () => {
    for (const p of ['/version', '/healthz', '/livez', '/readyz']) assert.equal((await raw(p)).status, 200, p)
    for (const p of ['/api', '/apis', '/openapi/v2', '/.well-known/openid-configuration', '/openid/v1/jwks']) {
      const r = await raw(p)
      assert.equal(r.status, 403, p)
      assert.equal(r.text, pathForbidden(p))
    }
    const review = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }
    const r = await fetch(`${process.env.KUBEFLARE_URL}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(review),
    })
    assert.equal(r.status, 403)
    const body = await r.json()
    assert.equal(
      body.message,
      forbidden('system:anonymous', 'create', 'selfsubjectreviews', '', 'authentication.k8s.io'),
    )
  })

  it('kubectl with a user name and no password (Basic) is system:anonymous', async () => {
    const file = basicKubeconfig(join(closed.dir, 'harness-basic.yaml'), process.env.KUBEFLARE_URL, harnessCa())
    const r = await kubectlWith('1.33', file, ['get', '--raw', '/api/v1/namespaces/default/pods'], { allowFail: true })
    assert.equal(r.code, 1)
    assert.equal(
      r.stderr,
      `Error from server (Forbidden): ${forbidden('system:anonymous', 'list', 'pods', 'default')}\n`,
    )
    const v = await kubectlWith('1.27', file, ['get', '--raw', '/version'])
    assert.equal(JSON.parse(v.stdout).gitVersion, 'v1.33.1')
  })
})

describe('anonymous auth off (--var KUBEFLARE_ANONYMOUS_AUTH:false)', () => {
  it("a request without credentials is 401 with kube's Status, byte for byte", async () => {
    for (const p of ['/api/v1/pods', '/version', '/healthz', '/api']) {
      const r = await get(`${closed.url}${p}`, { ca: closed.ca })
      assert.equal(r.status, 401, p)
      assert.equal(r.headers['content-type'], 'application/json')
      assert.equal(r.text, UNAUTHORIZED)
    }
    // A scheme other than Bearer, or Bearer without a token, is no credential at all: 401 too.
    for (const authorization of ['Basic eDp5', 'Bearer']) {
      const r = await get(`${closed.url}/api/v1/pods`, { ca: closed.ca, headers: { authorization } })
      assert.equal(r.status, 401, authorization)
      assert.equal(r.text, UNAUTHORIZED)
    }
  })

  it('a token still works', async () => {
    const r = await get(`${closed.url}/api/v1/namespaces/default/pods`, {
      ca: closed.ca,
      headers: { authorization: `Bearer ${ADMIN}` },
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(JSON.parse(r.text).kind, 'PodList')
  })

  it('kubectl with a user name and no password (Basic): You must be logged in to the server', async () => {
    const file = basicKubeconfig(join(closed.dir, 'basic.yaml'), closed.url, closed.ca.toString('base64'))
    const r = await kubectlWith('1.33', file, ['get', '--raw', '/version'], { allowFail: true })
    assert.equal(r.code, 1)
    assert.equal(r.stderr, 'error: You must be logged in to the server (Unauthorized)\n')
  })
})

describe('plain http (--local-protocol http)', () => {
  it('serves, with the anonymous rules', async () => {
    const v = await get(`${plain.url}/version`)
    assert.equal(v.status, 200)
    const r = await get(`${plain.url}/api/v1/pods`)
    assert.equal(r.status, 403)
    assert.equal(r.text, ANONYMOUS_PODS)
    // The server itself takes a token over http; it is client-go that will not send one.
    const a = await get(`${plain.url}/api/v1/namespaces/default/pods`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    })
    assert.equal(a.status, 200, a.text)
  })

  it('kubectl over http sends no token, so it is system:anonymous even with one in its kubeconfig', async () => {
    const file = join(plain.dir, 'admin.yaml')
    writeFileSync(file, kubeconfig({ server: plain.url, token: ADMIN }))
    const r = await kubectl('1.33', ['--kubeconfig', file, 'get', '--raw', '/api/v1/namespaces/default/pods'], {
      allowFail: true,
    })
    assert.equal(r.code, 1)
    assert.equal(
      r.stderr,
      `Error from server (Forbidden): ${forbidden('system:anonymous', 'list', 'pods', 'default')}\n`,
    )
    const v = await kubectl('1.27', ['--kubeconfig', file, 'version', '-o', 'json'])
    assert.equal(JSON.parse(v.stdout).serverVersion.gitVersion, 'v1.33.1')
  })
})
