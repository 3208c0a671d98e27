// kube's stale pod disruption worker through kubectl: a DisruptionTarget=True mark written with `kubectl patch
// --subresource=status` more than two minutes in the past, on a pod nobody deletes, is set back to False by the
// disruption controller (type, status and transition time only), while a fresh mark stays.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, podManifest, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('stale-disruption')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)
const stamp = (msAgo) => new Date(Date.now() - msAgo).toISOString().replace(/\.\d+Z$/, 'Z')

async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const mark = (name, at) =>
  k([
    'patch',
    'pod',
    name,
    '--subresource=status',
    '--type=strategic',
    '-p',
    JSON.stringify({
      status: {
        conditions: [
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'EvictionByEvictionAPI',
            message: 'Eviction API: evicting',
            lastTransitionTime: at,
          },
        ],
      },
    }),
  ])
const condition = async (name) => {
  const pod = JSON.parse((await k(['get', 'pod', name, '-o', 'json'])).stdout)
  return (pod.status.conditions ?? []).find((c) => c.type === 'DisruptionTarget')
}

describe('stale DisruptionTarget marks (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
    const pods = ['old', 'fresh'].map((n) => podManifest(n, { namespace: ns }))
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods }) })
    await k(['wait', '--for=condition=Ready', 'pod/old', 'pod/fresh', '--timeout=60s'])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('a mark older than two minutes is set back to False; a fresh one stays True', async () => {
    await mark('fresh', stamp(5_000))
    await mark('old', stamp(3 * 60_000))
    const cleared = await waitFor('the old mark cleared', async () => {
      const c = await condition('old')
      return c?.status === 'False' ? c : undefined
    })
    assert.deepEqual(Object.keys(cleared).sort(), ['lastProbeTime', 'lastTransitionTime', 'status', 'type'])
    assert.ok(Date.now() - Date.parse(cleared.lastTransitionTime) < 60_000)
    assert.equal((await condition('fresh'))?.status, 'True')
  })
})
