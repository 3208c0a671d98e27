// Informers and watches as a user who may only get, list and watch pods in one namespace (a Role and RoleBinding
// for alice): @kubernetes/client-node's makeInformer on that namespace lists and then sees the admin's changes; an
// informer on all namespaces, and a watch there or in another namespace, are refused with 403. The python client's
// list and watch.Watch().stream() (test/e2e/python/identity_watch.py) likewise, and WebSocket watches carrying the
// token in kube's bearer subprotocol.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { request } from 'node:https'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { CoreV1Api, Watch, makeInformer } from '@kubernetes/client-node'
import { TEST_TOKENS, kubectl, podManifest, uniqueNs } from './helpers.mjs'
import { clientConfig, forbidden, kubeconfigFor } from './identity-helpers.mjs'

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
const teamA = uniqueNs('inf-a')
const teamB = uniqueNs('inf-b')
const aliceConfig = clientConfig(TEST_TOKENS.alice)
const alice = aliceConfig.makeApiClient(CoreV1Api)
const admin = clientConfig(TEST_TOKENS.admin).makeApiClient(CoreV1Api)

/** Resolves with the first value `check` returns that is not undefined, polling `events`; rejects after `ms`. */
async function until(what, check, ms = 15_000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 50))) {
    const v = check()
    if (v !== undefined) return v
  }
  throw new Error(`timed out waiting for ${what}`)
}

before(async () => {
  for (const ns of [teamA, teamB]) await kubectl('1.33', ['create', 'namespace', ns])
  await kubectl('1.33', ['create', 'role', 'pod-watcher', '-n', teamA, '--verb=get,list,watch', '--resource=pods'])
  await kubectl('1.33', ['create', 'rolebinding', 'alice-watches', '-n', teamA, '--role=pod-watcher', '--user=alice'])
  for (const ns of [teamA, teamB]) await admin.createNamespacedPod({ namespace: ns, body: podManifest('before') })
})

after(async () => {
  for (const ns of [teamA, teamB])
    await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

describe('@kubernetes/client-node informer as alice', () => {
  it('on her namespace: the list, then the changes the admin makes', async () => {
    const path = `/api/v1/namespaces/${teamA}/pods`
    const informer = makeInformer(aliceConfig, path, () => alice.listNamespacedPod({ namespace: teamA }))
    const events = []
    const errors = []
    for (const type of ['add', 'update', 'delete']) informer.on(type, (p) => events.push([type, p.metadata?.name]))
    informer.on('error', (e) => errors.push(e))
    await informer.start()
    try {
      await until('the listed pod', () => (events.some(([t, n]) => t === 'add' && n === 'before') ? true : undefined))
      await admin.createNamespacedPod({ namespace: teamA, body: podManifest('during') })
      await until('ADDED during', () => (events.some(([t, n]) => t === 'add' && n === 'during') ? true : undefined))
      await admin.deleteNamespacedPod({ namespace: teamA, name: 'during', gracePeriodSeconds: 0 })
      await until('DELETED during', () =>
        events.some(([t, n]) => t === 'delete' && n === 'during') ? true : undefined,
      )
      assert.deepEqual(
        informer.list(teamA).map((p) => p.metadata?.name),
        ['before'],
      )
      assert.deepEqual(errors, [])
      // Only her namespace's pods ever arrived.
      assert.ok(
        events.every(([, n]) => n === 'before' || n === 'during'),
        JSON.stringify(events),
      )
    } finally {
      await informer.stop()
    }
  })

  it('on all namespaces: the list is refused with 403 and the informer reports it', async () => {
    const informer = makeInformer(aliceConfig, '/api/v1/pods', () => alice.listPodForAllNamespaces())
    const errors = []
    informer.on('error', (e) => errors.push(e))
    informer.on('add', (p) => assert.fail(`unexpected pod ${p.metadata?.name}`))
    await informer.start()
    await informer.stop()
    assert.equal(errors.length, 1)
    assert.equal(errors[0].code, 403)
    const status = JSON.parse(errors[0].body)
    assert.equal(status.reason, 'Forbidden')
    assert.equal(status.message, forbidden('alice', 'list', 'pods'))
  })

  it('a watch on all namespaces or on another namespace is 403', async () => {
    for (const path of ['/api/v1/pods', `/api/v1/namespaces/${teamB}/pods`]) {
      const err = await new Promise((resolve) => {
        new Watch(aliceConfig).watch(path, {}, () => assert.fail(`an event on ${path}`), resolve)
      })
      assert.equal(err?.statusCode, 403, `${path}: ${err}`)
    }
  })

  it("the 403 of a watch request carries kube's message", async () => {
    const url = `${process.env.KUBEFLARE_URL}/api/v1/pods?watch=true`
    const r = await fetch(url, { headers: { authorization: `Bearer ${TEST_TOKENS.alice}` } })
    assert.equal(r.status, 403)
    assert.equal((await r.json()).message, forbidden('alice', 'watch', 'pods'))
  })
})

/** A WebSocket watch handshake with the token in kube's bearer subprotocol: the status, and the body if refused. */
function websocketWatch(path, token) {
  const url = new URL(process.env.KUBEFLARE_URL)
  const bearer = token ? [`base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`] : []
  const headers = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': Buffer.from('kubeflare-e2e-ws').toString('base64'),
    'sec-websocket-protocol': [...bearer, 'v4.channel.k8s.io'].join(', '),
  }
  const ca = readFileSync(process.env.NODE_EXTRA_CA_CERTS)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers, ca })
    req.on('upgrade', (res, socket) => {
      socket.destroy()
      resolve({ status: res.statusCode, protocol: res.headers['sec-websocket-protocol'] })
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('WebSocket watches as alice (token in the bearer subprotocol)', () => {
  it('her namespace upgrades; elsewhere 403; a bad token 401; none is anonymous', async () => {
    const mine = await websocketWatch(`/api/v1/namespaces/${teamA}/pods?watch=true`, TEST_TOKENS.alice)
    assert.deepEqual(mine, { status: 101, protocol: 'v4.channel.k8s.io' })
    const elsewhere = await websocketWatch(`/api/v1/namespaces/${teamB}/pods?watch=true`, TEST_TOKENS.alice)
    assert.equal(elsewhere.status, 403)
    assert.equal(elsewhere.body.message, forbidden('alice', 'watch', 'pods', teamB))
    const bad = await websocketWatch(`/api/v1/namespaces/${teamA}/pods?watch=true`, 'garbage')
    assert.equal(bad.status, 401)
    assert.equal(bad.body.reason, 'Unauthorized')
    const none = await websocketWatch('/api/v1/pods?watch=true')
    assert.equal(none.status, 403)
    assert.equal(none.body.message, forbidden('system:anonymous', 'watch', 'pods'))
  })
})

describe('python client as alice', () => {
  it('lists and watches her namespace; all namespaces and another namespace are 403', () => {
    const file = kubeconfigFor('alice-python', TEST_TOKENS.alice)
    const script = join(import.meta.dirname, 'python', 'identity_watch.py')
    const r = spawnSync(PYTHON, [script, teamA, teamB, file], { encoding: 'utf8', timeout: 90_000, env: process.env })
    assert.equal(r.status, 0, `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`)
    const checks = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .map((c) => [c.check, c]),
    )
    assert.deepEqual(checks.list.names, ['before'])
    const during = checks.watch.events.filter(([, name]) => name === 'py-during')
    assert.deepEqual(during[0], ['ADDED', 'py-during'])
    assert.deepEqual(during.at(-1), ['DELETED', 'py-during'])
    assert.ok(
      checks.watch.events.every(([, name]) => name === 'before' || name === 'py-during'),
      JSON.stringify(checks.watch.events),
    )
    const refused = (check, verb, namespace) => ({
      check,
      status: 403,
      message: forbidden('alice', verb, 'pods', namespace),
    })
    assert.deepEqual(checks['list-all'], refused('list-all', 'list'))
    assert.deepEqual(checks['list-other'], refused('list-other', 'list', teamB))
    assert.deepEqual(checks['watch-all'], refused('watch-all', 'watch'))
    assert.deepEqual(checks['watch-other'], refused('watch-other', 'watch', teamB))
  })
})
