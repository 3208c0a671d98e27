// The pod lifecycle through kubectl (oldest and newest supported) and a @kubernetes/client-node informer, against a
// real `wrangler dev` server whose simulated kubelet waits 500 ms to start and to stop a pod (wrangler.toml):
// run, wait for Ready, get, logs, logs -f, describe (Events), delete (graceful), nodes, describe node, cordon.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const V1 = ['', 'api', 'v1'].join('/')

/** Namespaces this file created; deleted at the end (best effort). */
const created = []
after(async () => {
  await Promise.all(created.map((ns) => api('DELETE', `${V1}/namespaces/${ns}`).catch(() => {})))
  // Never leave a node cordoned for the files that run after this one.
  for (const n of ['node-1', 'node-2', 'node-3']) {
    await api(
      'PATCH',
      `${V1}/nodes/${n}`,
      { spec: { unschedulable: null } },
      { 'content-type': 'application/merge-patch+json' },
    ).catch(() => {})
  }
})

async function makeNs(prefix) {
  const ns = uniqueNs(prefix)
  const r = await api('POST', `${V1}/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
  assert.equal(r.status, 201, `create namespace ${ns}: ${r.text}`)
  created.push(ns)
  return ns
}

async function waitFor(what, check, ms = 20_000, every = 100) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(every)
  }
}

const rowFor = (table, name, col = 'NAME') => table.rows.find((r) => r[table.header.indexOf(col)] === name)
const cell = (table, row, col) => row[table.header.indexOf(col)]

for (const v of KUBECTL_VERSIONS) {
  describe(`pod lifecycle with kubectl ${v}`, () => {
    const k = (args, opts) => kubectl(v, args, opts)
    let ns
    let node // where `web` runs

    it('run', async () => {
      ns = await makeNs(`lc${v.replace('.', '')}`)
      const r = await k(['run', 'web', '--image=nginx:1.25', '-n', ns])
      assert.match(r.stdout, /^pod\/web created$/m)
    })

    it('wait --for=condition=Ready pod/web', async () => {
      const t0 = Date.now()
      const r = await k(['wait', '--for=condition=Ready', 'pod/web', '-n', ns, '--timeout=60s'])
      assert.match(r.stdout, /^pod\/web condition met$/m)
      // The simulated kubelet takes its 500 ms start delay; nothing takes long.
      assert.ok(Date.now() - t0 < 30_000)
    })

    it('get pods: READY 1/1, STATUS Running', async () => {
      const r = await k(['get', 'pods', '-n', ns])
      const t = parseTable(r.stdout)
      assert.deepEqual(t.header, ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], r.stdout)
      const row = rowFor(t, 'web')
      assert.ok(row, r.stdout)
      assert.equal(cell(t, row, 'READY'), '1/1')
      assert.equal(cell(t, row, 'STATUS'), 'Running')
      assert.equal(cell(t, row, 'RESTARTS'), '0')
      const wide = parseTable((await k(['get', 'pods', '-n', ns, '-o', 'wide'])).stdout)
      const w = rowFor(wide, 'web')
      node = cell(wide, w, 'NODE')
      assert.match(node, /^node-[123]$/)
      assert.match(cell(wide, w, 'IP'), /^10\.244\.[0-2]\.\d+$/)
    })

    it('logs web', async () => {
      const r = await k(['logs', 'web', '-n', ns])
      assert.equal(r.stdout, `kubeflare: container web started from image nginx:1.25 on virtual node ${node}\n`)
    })

    it('describe pod web: status, node and the Events section (Scheduled, Started)', async () => {
      const r = await k(['describe', 'pod', 'web', '-n', ns])
      const out = r.stdout
      assert.match(out, /^Name:\s+web$/m)
      assert.match(out, new RegExp(`^Node:\\s+${node}/10\\.0\\.0\\.\\d+$`, 'm'))
      assert.match(out, /^Status:\s+Running$/m)
      assert.match(out, /^IP:\s+10\.244\./m)
      assert.match(out, /^\s+Ready\s+True\s*$/m)
      const events = out.slice(out.indexOf('\nEvents:'))
      assert.ok(out.includes('\nEvents:'), out)
      assert.match(events, /Normal\s+Scheduled\s+.*default-scheduler\s+Successfully assigned .*\/web to node-\d/)
      assert.match(events, /Normal\s+Pulled\s+.*kubelet\s+Container image "nginx:1\.25" already present on machine/)
      assert.match(events, /Normal\s+Created\s+.*kubelet\s+Created container:? web/)
      assert.match(events, /Normal\s+Started\s+.*kubelet\s+Started container web/)
    })

    it('a container that keeps failing restarts and shows CrashLoopBackOff with its restart count', async () => {
      await k(['run', 'crash', '--image=busybox:1.36', '-n', ns, '--', 'sh', '-c', 'exit 2'])
      const row = await waitFor('crash to loop', async () => {
        const t = parseTable((await k(['get', 'pods', 'crash', '-n', ns])).stdout)
        const r = rowFor(t, 'crash')
        return r && cell(t, r, 'STATUS') === 'CrashLoopBackOff' ? { t, r } : undefined
      })
      assert.equal(cell(row.t, row.r, 'READY'), '0/1')
      assert.match(cell(row.t, row.r, 'RESTARTS'), /^1 \(\d+s ago\)$/)
      const d = (await k(['describe', 'pod', 'crash', '-n', ns])).stdout
      assert.match(d, /Last State:\s+Terminated\n\s+Reason:\s+Error\n\s+Exit Code:\s+2/)
      assert.match(d, /Warning\s+BackOff\s+.*Back-off restarting failed container crash in pod crash_/)
      // The run that ended is there to read (it wrote nothing).
      assert.equal((await k(['logs', 'crash', '-n', ns, '--previous'])).stdout, '')
    })

    it('logs -f of a finished pod prints its output and ends', async () => {
      await k([
        'run',
        'done',
        '--image=busybox:1.36',
        '--restart=Never',
        '-n',
        ns,
        '--',
        'sh',
        '-c',
        'echo one; echo two',
      ])
      await waitFor(
        'done to succeed',
        async () => (await api('GET', `${V1}/namespaces/${ns}/pods/done`)).body?.status?.phase === 'Succeeded',
      )
      const r = await k(['logs', '-f', 'done', '-n', ns], { timeout: 20_000 })
      assert.equal(r.stdout, 'one\ntwo\n')
    })

    // `kubectl logs -f` of a running pod whose program exits should return when it exits. The follow stream is only
    // ended when the pod is DELETED (src/namespace/log-followers.ts end() is called from the kubelet's onPodGone only,
    // src/namespace/kubelet-controller.ts onCommitted), never when the pod completes, so kubectl keeps waiting after
    // the last line (until the timeout kills it, or the connection drops: "error: unexpected EOF", exit 1). Marked
    it('logs -f of a running finite pod streams its lines and ends when the pod completes', async () => {
      await k([
        'run',
        'tick',
        '--image=busybox:1.36',
        '--restart=Never',
        '-n',
        ns,
        '--',
        'sh',
        '-c',
        'echo one; sleep 3; echo two',
      ])
      await k(['wait', '--for=condition=Ready', 'pod/tick', '-n', ns, '--timeout=60s'])
      const t0 = Date.now()
      const r = await k(['logs', '-f', 'tick', '-n', ns], { timeout: 15_000, allowFail: true })
      assert.equal(r.code, 0, `kubectl logs -f did not end: ${r.stderr}`)
      assert.equal(r.stdout, 'one\ntwo\n')
      assert.ok(Date.now() - t0 < 10_000)
    })

    it('delete pod web waits through graceful deletion and exits 0', async () => {
      const t0 = Date.now()
      const r = await k(['delete', 'pod', 'web', '-n', ns], { timeout: 60_000 })
      assert.equal(r.code, 0)
      assert.match(r.stdout, /^pod "web" deleted/m)
      // The kubelet's 500 ms stop delay, not the 30 s grace period, decides.
      assert.ok(Date.now() - t0 < 25_000, `took ${Date.now() - t0} ms`)
      const g = await k(['get', 'pod', 'web', '-n', ns], { allowFail: true })
      assert.notEqual(g.code, 0)
      assert.match(g.stderr, /NotFound.*pods "web" not found/)
    })

    it('get nodes: three Ready virtual nodes', async () => {
      const r = await k(['get', 'nodes'])
      const t = parseTable(r.stdout)
      assert.deepEqual(t.header, ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'], r.stdout)
      for (const n of ['node-1', 'node-2', 'node-3']) {
        const row = rowFor(t, n)
        assert.ok(row, `${n} in:\n${r.stdout}`)
        assert.equal(cell(t, row, 'STATUS'), 'Ready')
        assert.equal(cell(t, row, 'ROLES'), '<none>')
        assert.equal(cell(t, row, 'VERSION'), 'v1.33.1-kubeflare')
      }
      const wide = parseTable((await k(['get', 'nodes', '-o', 'wide'])).stdout)
      assert.equal(cell(wide, rowFor(wide, 'node-1'), 'INTERNAL-IP'), '10.0.0.10')
    })

    it('describe node node-1', async () => {
      const r = await k(['describe', 'node', 'node-1'])
      const out = r.stdout
      assert.match(out, /^Name:\s+node-1$/m)
      assert.match(out, /^Roles:\s+<none>$/m)
      assert.match(out, /kubernetes\.io\/hostname=node-1/)
      assert.match(out, /^Taints:\s+<none>$/m)
      assert.match(out, /^Unschedulable:\s+false$/m)
      assert.match(out, /^\s+Ready\s+True\s/m)
      assert.match(out, /^\s+InternalIP:\s+10\.0\.0\.10$/m)
      assert.match(out, /^Capacity:$/m)
      assert.match(out, /^\s+pods:\s+110$/m)
      assert.match(out, /^PodCIDR:\s+10\.244\.0\.0\/24$/m)
      assert.match(out, /^Non-terminated Pods:/m)
    })

    it('cordon and uncordon node-1', async () => {
      try {
        assert.match((await k(['cordon', 'node-1'])).stdout, /^node\/node-1 cordoned$/m)
        const t = parseTable((await k(['get', 'nodes'])).stdout)
        assert.equal(cell(t, rowFor(t, 'node-1'), 'STATUS'), 'Ready,SchedulingDisabled')
        assert.equal((await api('GET', `${V1}/nodes/node-1`)).body.spec.unschedulable, true)
        // A new pod pinned to node-1 by selector waits while the node is cordoned.
        await k([
          'run',
          'pinned',
          '--image=nginx:1.25',
          '-n',
          ns,
          '--overrides',
          JSON.stringify({ apiVersion: 'v1', spec: { nodeSelector: { 'kubernetes.io/hostname': 'node-1' } } }),
        ])
        const pending = await waitFor('pinned to be unschedulable', async () => {
          const p = (await api('GET', `${V1}/namespaces/${ns}/pods/pinned`)).body
          return p?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False') ? p : undefined
        })
        assert.equal(pending.spec.nodeName, undefined)
        assert.match((await k(['cordon', 'node-1'])).stdout, /^node\/node-1 already cordoned$/m)
      } finally {
        assert.match((await k(['uncordon', 'node-1'])).stdout, /^node\/node-1 uncordoned$/m)
      }
      const t = parseTable((await k(['get', 'nodes'])).stdout)
      assert.equal(cell(t, rowFor(t, 'node-1'), 'STATUS'), 'Ready')
      // Uncordoning wakes the waiting pod.
      await k(['wait', '--for=condition=Ready', 'pod/pinned', '-n', ns, '--timeout=60s'])
      assert.equal((await api('GET', `${V1}/namespaces/${ns}/pods/pinned`)).body.spec.nodeName, 'node-1')
    })
  })
}

describe('@kubernetes/client-node informer over pods in a namespace', () => {
  it('sees ADDED (Pending), MODIFIED to Running, and DELETED', async () => {
    const ns = await makeNs('inf')
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    const core = kc.makeApiClient(CoreV1Api)
    const informer = makeInformer(kc, `${V1}/namespaces/${ns}/pods`, () => core.listNamespacedPod({ namespace: ns }))
    const seen = []
    const errors = []
    informer.on('add', (p) => seen.push(['add', p.metadata?.name, p.status?.phase, p.spec?.nodeName ?? null]))
    informer.on('update', (p) => seen.push(['update', p.metadata?.name, p.status?.phase, p.spec?.nodeName ?? null]))
    informer.on('delete', (p) => seen.push(['delete', p.metadata?.name, p.status?.phase, p.spec?.nodeName ?? null]))
    informer.on('error', (e) => errors.push(e))
    await informer.start()
    try {
      await core.createNamespacedPod({ namespace: ns, body: podManifest('watched') })
      await waitFor('the informer to see Running', () =>
        seen.some(([verb, , phase]) => verb === 'update' && phase === 'Running'),
      )
      // The cache has the running pod.
      const cached = informer.get('watched', ns)
      assert.equal(cached?.status?.phase, 'Running')

      await core.deleteNamespacedPod({ name: 'watched', namespace: ns })
      await waitFor('the informer to see the deletion', () => seen.some(([verb]) => verb === 'delete'))
      assert.equal(informer.get('watched', ns), undefined)

      assert.deepEqual(seen[0], ['add', 'watched', 'Pending', null], JSON.stringify(seen))
      // ADDED Pending, MODIFIED bound, MODIFIED Running, MODIFIED terminating, DELETED: nothing coalesced.
      assert.deepEqual(
        seen.map(([verb]) => verb),
        ['add', 'update', 'update', 'update', 'delete'],
        JSON.stringify(seen),
      )
      assert.match(seen[1][3] ?? '', /^node-[123]$/)
      assert.equal(seen[2][2], 'Running')
      assert.equal(seen[4][1], 'watched')
      assert.deepEqual(errors, [])
    } finally {
      await informer.stop()
    }
  })
})
