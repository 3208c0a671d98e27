// The kubelet's admission through kubectl: a pod run straight onto a virtual node (spec.nodeName through --overrides,
// bypassing the scheduler) asking for more cpu than the node has is rejected by the node's kubelet, and `kubectl get
// pod` shows what kube shows (STATUS OutOfcpu), with kube's event and status message.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('admission')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('kubelet admission (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('kubectl run onto a node without room: the pod is Failed OutOfcpu, as kubectl get pod shows', async () => {
    const node = (await api('GET', '/api/v1/nodes')).body.items.find(
      (n) => n.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    ).metadata.name
    const overrides = {
      apiVersion: 'v1',
      spec: {
        nodeName: node,
        containers: [{ name: 'huge', image: 'nginx:1.25', resources: { requests: { cpu: '1000' } } }],
      },
    }
    await k(['run', 'huge', '--image=nginx:1.25', '--restart=Never', `--overrides=${JSON.stringify(overrides)}`])
    const row = await waitFor('the pod rejected', async () => {
      const { header, rows } = parseTable((await k(['get', 'pod', 'huge'])).stdout)
      const r = Object.fromEntries(header.map((h, i) => [h, rows[0]?.[i]]))
      return r.STATUS === 'OutOfcpu' ? r : undefined
    })
    assert.equal(row.READY, '0/1')
    const pod = JSON.parse((await k(['get', 'pod', 'huge', '-o', 'json'])).stdout)
    assert.equal(pod.status.phase, 'Failed')
    assert.match(
      pod.status.message,
      /^Pod was rejected: Node didn't have enough resource: cpu, requested: 1000000, used: \d+, capacity: \d+$/,
    )
    assert.equal(pod.status.containerStatuses, undefined)
    const event = await waitFor('the OutOfcpu event', async () => {
      const out = await k([
        'get',
        'events',
        '--field-selector',
        'reason=OutOfcpu,involvedObject.name=huge',
        '-o',
        'jsonpath={.items[0].type} {.items[0].source.component} {.items[0].message}',
      ])
      return out.stdout || undefined
    })
    assert.equal(event, `Warning kubelet ${pod.status.message.replace(/^Pod was rejected: /, '')}`)
  })
})
