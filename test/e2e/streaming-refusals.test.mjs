// exec and attach on pods of virtual nodes: every client gets a printable refusal, never a bare failed handshake.
// kubectl 1.30+ and the WebSocket clients get the upgrade and a kubelet-style Status on the error channel; kubectl
// before 1.30 (SPDY only) gets the Status as the HTTP answer.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { CoreV1Api, Exec, KubeConfig } from '@kubernetes/client-node'
import { kubectl, podManifest, uniqueNs } from './helpers.mjs'

const kc = new KubeConfig()
kc.loadFromFile(process.env.KUBECONFIG)
const core = kc.makeApiClient(CoreV1Api)
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

describe('exec on a pod of a virtual node', () => {
  const namespace = uniqueNs('refuse')
  let node = ''
  const why = () =>
    `pod web runs on virtual node "${node}", which the control plane simulates: it has no processes (a node agent serves exec)`

  before(async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } })
    await core.createNamespacedPod({ namespace, body: podManifest('web') })
    for (let i = 0; i < 100 && !node; i++) {
      const p = await core.readNamespacedPod({ namespace, name: 'web' })
      if (p.status?.phase === 'Running') node = p.spec.nodeName
      else await new Promise((r) => setTimeout(r, 100))
    }
    assert.ok(node, 'the pod never ran')
  })
  after(() => core.deleteNamespace({ name: namespace }).catch(() => {}))

  it('kubectl 1.33 (WebSocket, v5.channel.k8s.io) prints the kubelet-style error and exits 1', async () => {
    const r = await kubectl('1.33', ['-n', namespace, 'exec', 'web', '--', 'echo', 'hi'], { allowFail: true })
    assert.equal(r.code, 1)
    assert.equal(r.stderr.trim(), `error: Internal error occurred: error executing command in container: ${why()}`)
  })

  it('kubectl 1.27 (SPDY) gets the refusal as the answer', async () => {
    const r = await kubectl('1.27', ['-n', namespace, 'exec', 'web', '--', 'echo', 'hi'], { allowFail: true })
    assert.equal(r.code, 1)
    assert.equal(r.stderr.trim(), `Error from server (BadRequest): exec is not available: ${why()}`)
  })

  it('client-node Exec hands the Status to its status callback', async () => {
    const sink = new Writable({ write: (_c, _e, cb) => cb() })
    const status = await new Promise((resolve, reject) => {
      new Exec(kc).exec(namespace, 'web', 'main', ['echo', 'hi'], sink, sink, null, false, resolve).catch(reject)
    })
    assert.equal(status.reason, 'InternalError')
    assert.equal(status.details.causes[0].message, `error executing command in container: ${why()}`)
  })

  it('the python client reads the Status from the error channel', () => {
    const r = spawnSync(PYTHON, [join(import.meta.dirname, 'python', 'exec_refused.py'), namespace, 'web'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.equal(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1))
    assert.equal(out.error.status, 'Failure')
    assert.equal(out.error.message, `Internal error occurred: error executing command in container: ${why()}`)
  })
})
