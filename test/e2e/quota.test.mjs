// Quota and limit ranges with kubectl: `kubectl create quota --hard=pods=2`, a third pod refused with kube's message,
// `kubectl describe quota` and `kubectl get quota` showing what is used, usage freed by a delete, and a LimitRange
// defaulting a pod's requests and limits (kubectl get limits, the limit-ranger annotation); a repeated server-side
// apply of a LimitRange writes nothing.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('quota')
const limitsNs = uniqueNs('limits')

before(async () => {
  await kubectl(V, ['create', 'namespace', ns])
  await kubectl(V, ['create', 'namespace', limitsNs])
})
after(async () => {
  for (const n of [ns, limitsNs]) await kubectl(V, ['delete', 'namespace', n, '--wait=false'], { allowFail: true })
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

describe('ResourceQuota with kubectl', () => {
  it('create quota --hard=pods=2: the third pod is refused, describe and get show the usage', async () => {
    await kubectl(V, ['create', 'quota', 'q', '--hard=pods=2', '-n', ns])
    // Admission enforces the quota's status.hard, which the quota controller writes: kube's e2e tests wait for it too.
    for (let i = 0; i < 100; i++) {
      const q = JSON.parse((await kubectl(V, ['get', 'quota', 'q', '-n', ns, '-o', 'json'])).stdout)
      if (q.status?.hard?.pods === '2') break
      await sleep(100)
    }
    for (const name of ['p1', 'p2']) await kubectl(V, ['run', name, '--image=nginx:1.25', '-n', ns])
    const third = await kubectl(V, ['run', 'p3', '--image=nginx:1.25', '-n', ns], { allowFail: true })
    assert.notEqual(third.code, 0)
    assert.equal(
      third.stderr.trim(),
      'Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    )
    const described = (await kubectl(V, ['describe', 'quota', 'q', '-n', ns])).stdout
    assert.match(described, /^Name:\s+q$/m)
    assert.match(described, /^Resource\s+Used\s+Hard$/m)
    assert.match(described, /^pods\s+2\s+2$/m)
    for (const version of ['1.27', '1.33']) {
      const table = parseTable((await kubectl(version, ['get', 'quota', '-n', ns])).stdout)
      assert.deepEqual(table.header, ['NAME', 'AGE', 'REQUEST', 'LIMIT'])
      assert.equal(table.rows[0][0], 'q')
      assert.equal(table.rows[0][2], 'pods: 2/2')
    }
  })

  it('a deleted pod frees its place in the quota', async () => {
    await kubectl(V, ['delete', 'pod', 'p1', '-n', ns, '--grace-period=0', '--force'], { allowFail: true })
    let created
    for (let i = 0; i < 50; i++) {
      created = await kubectl(V, ['run', 'p3', '--image=nginx:1.25', '-n', ns], { allowFail: true })
      if (created.code === 0) break
      await sleep(200)
    }
    assert.equal(created.code, 0, created.stderr)
    let used = ''
    for (let i = 0; i < 50 && used !== '2'; i++) {
      used = JSON.parse((await kubectl(V, ['get', 'quota', 'q', '-n', ns, '-o', 'json'])).stdout).status.used.pods
      if (used !== '2') await sleep(200)
    }
    assert.equal(used, '2')
  })
})

describe('LimitRange with kubectl', () => {
  it('defaults a pod’s requests and limits and says so; get limits shows it', async () => {
    const lr = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: limitsNs },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m', memory: '256Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
            max: { cpu: '1' },
          },
        ],
      },
    }
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(lr) })
    const limits = parseTable((await kubectl(V, ['get', 'limits', '-n', limitsNs])).stdout)
    assert.deepEqual(limits.header, ['NAME', 'CREATED AT'])
    assert.equal(limits.rows[0][0], 'defaults')
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(podManifest('web', { namespace: limitsNs })) })
    const pod = JSON.parse((await kubectl(V, ['get', 'pod', 'web', '-n', limitsNs, '-o', 'json'])).stdout)
    assert.deepEqual(pod.spec.containers[0].resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    })
    assert.equal(
      pod.metadata.annotations['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container main; cpu, memory limit for container main',
    )
    const big = podManifest('big', { namespace: limitsNs })
    big.spec.containers[0].resources = { limits: { cpu: '2' } }
    const refused = await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(big), allowFail: true })
    assert.notEqual(refused.code, 0)
    assert.match(refused.stderr, /pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2/)
  })

  it('apply --server-side twice, a second apart, of a LimitRange whose config lacks what defaulting adds: no write', async () => {
    const lr = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'ssa', namespace: limitsNs },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] },
    }
    const apply = () => kubectl(V, ['apply', '--server-side', '-f', '-'], { input: JSON.stringify(lr) })
    const get = async () =>
      JSON.parse((await kubectl(V, ['get', 'limits', 'ssa', '-n', limitsNs, '-o', 'json'])).stdout)
    await apply()
    const first = await get()
    // Defaulting added defaultRequest, which the config does not hold.
    assert.deepEqual(first.spec.limits[0].defaultRequest, { cpu: '500m' })
    await sleep(1100)
    await apply()
    const again = await get()
    // kube's IgnoreManagedFieldsTimestampsTransformer: nothing but the apply's time would move, so nothing is written.
    assert.equal(again.metadata.resourceVersion, first.metadata.resourceVersion)
    assert.deepEqual(again.metadata.managedFields, first.metadata.managedFields)
  })
})
