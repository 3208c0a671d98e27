// kubectl 1.27 and 1.33 against a real server: a DaemonSet puts a pod on each virtual node (rollout status, set image,
// rollout history and undo through ControllerRevisions); a StatefulSet of 3 comes up in order and `kubectl rollout
// status statefulset/x` returns; `kubectl drain --ignore-daemonsets` with a PodDisruptionBudget blocks, then proceeds
// once another pod is ready, or times out with kube's message; a 150-pod service gets 2 EndpointSlices; bad input for
// each kind is refused with kube's messages. The drained node is one of the test's own (tainted so no other test's pod
// lands there), so other tests' pods are never evicted.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(what, fn, ms = 60_000) {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined && v !== false) return v
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`)
    await sleep(250)
  }
}

const GATE = 'example.com/ready'
const yaml = (...docs) => docs.map((d) => toYaml(d)).join('---\n')
const isReady = (p) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')

/** A virtual node of the test's own (the simulated kubelet runs its pods), tainted against everyone else's pods. */
function virtualNode(name, index, taint) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' },
      annotations: { 'kubeflare.dev/virtual-node': 'true' },
    },
    spec: { podCIDR: `10.244.${index}.0/24`, podCIDRs: [`10.244.${index}.0/24`], taints: [taint] },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [{ type: 'InternalIP', address: `10.0.1.${index}` }],
    },
  }
}

const daemonSet = (name, image, tolerations = []) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { tolerations, containers: [{ name: 'c', image }] } },
  },
})

for (const [i, v] of KUBECTL_VERSIONS.entries()) {
  describe(`kubectl ${v}: daemon sets, stateful sets, disruption budgets, endpoint slices`, () => {
    const ns = uniqueNs(`dsts${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, ['-n', ns, ...args], opts)
    const pods = async (selector) =>
      (await api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`)).body.items
    const live = async (selector) => (await pods(selector)).filter((p) => !p.metadata.deletionTimestamp)
    const drainNode = `e2e-drain-${ns}`.slice(0, 63)
    const taint = { key: 'kubeflare.test/drain', value: ns.slice(-6), effect: 'NoSchedule' }
    const tolerate = [{ key: taint.key, operator: 'Exists' }]

    before(async () => {
      await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      const node = await api(
        'POST',
        '/api/v1/nodes',
        virtualNode(drainNode, 200 + i * 20 + Math.floor(Math.random() * 20), taint),
      )
      assert.equal(node.status, 201, node.text)
    })
    after(async () => {
      await api('DELETE', `/api/v1/nodes/${drainNode}`)
      await kubectl(v, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('a DaemonSet runs a pod on each virtual node; set image, rollout status, history and undo', async () => {
      assert.match(
        (await k(['apply', '-f', '-'], { input: yaml(daemonSet('agent', 'nginx:1.25')) })).stdout,
        /^daemonset\.apps\/agent created$/m,
      )
      assert.match(
        (await k(['rollout', 'status', 'ds/agent', '--timeout=90s'])).stdout,
        /daemon set "agent" successfully rolled out/,
      )
      const nodes = new Set((await live('app=agent')).map((p) => p.spec.nodeName))
      for (const n of ['node-1', 'node-2', 'node-3']) assert.ok(nodes.has(n), `a pod on ${n}: ${[...nodes]}`)
      assert.ok(!nodes.has(drainNode), 'no pod on the tainted node')
      const t = parseTable((await k(['get', 'ds', 'agent'])).stdout)
      assert.deepEqual(t.header, [
        'NAME',
        'DESIRED',
        'CURRENT',
        'READY',
        'UP-TO-DATE',
        'AVAILABLE',
        'NODE SELECTOR',
        'AGE',
      ])
      const [, desired, current, ready, upToDate, available, nodeSelector] = t.rows[0]
      assert.equal(Number(desired), nodes.size)
      assert.deepEqual([current, ready, upToDate, available], [desired, desired, desired, desired])
      assert.equal(nodeSelector, '<none>')

      assert.match(
        (await k(['set', 'image', 'ds/agent', 'c=nginx:1.27'])).stdout,
        /^daemonset\.apps\/agent image updated$/m,
      )
      await k(['rollout', 'status', 'ds/agent', '--timeout=90s'])
      assert.ok((await live('app=agent')).every((p) => p.spec.containers[0].image === 'nginx:1.27'))
      const history = parseTable(
        (await k(['rollout', 'history', 'ds/agent'])).stdout.replace(/^daemonset\.apps\/agent\s*$/m, ''),
      )
      assert.deepEqual(history.header, ['REVISION', 'CHANGE-CAUSE'])
      assert.deepEqual(
        history.rows.map((r) => r[0]),
        ['1', '2'],
      )
      assert.match((await k(['rollout', 'undo', 'ds/agent'])).stdout, /^daemonset\.apps\/agent rolled back$/m)
      await k(['rollout', 'status', 'ds/agent', '--timeout=90s'])
      await waitFor('pods back on nginx:1.25', async () => {
        const all = await live('app=agent')
        return all.length === nodes.size && all.every((p) => p.spec.containers[0].image === 'nginx:1.25')
          ? true
          : undefined
      })
      const after = parseTable(
        (await k(['rollout', 'history', 'ds/agent'])).stdout.replace(/^daemonset\.apps\/agent\s*$/m, ''),
      )
      // The first revision is the newest again.
      assert.deepEqual(
        after.rows.map((r) => r[0]),
        ['2', '3'],
      )
      const described = (await k(['describe', 'ds', 'agent'])).stdout
      assert.match(described, new RegExp(`^Desired Number of Nodes Scheduled: ${nodes.size}$`, 'm'))
      assert.match(described, new RegExp(`^Number of Nodes Scheduled with Up-to-date Pods: ${nodes.size}$`, 'm'))
      assert.match(described, /SuccessfulCreate\s+.*daemonset-controller\s+Created pod: agent-/)
    })

    it('a StatefulSet of 3 comes up in order and rollout status returns', async () => {
      const service = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
      }
      const sts = {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          serviceName: 'web',
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
          },
        },
      }
      const applied = (await k(['apply', '-f', '-'], { input: yaml(service, sts) })).stdout
      assert.match(applied, /^statefulset\.apps\/web created$/m)
      assert.match(
        (await k(['rollout', 'status', 'statefulset/web', '--timeout=120s'])).stdout,
        /partitioned roll out complete: 3 new pods have been updated\.\.\./,
      )
      const t = parseTable((await k(['get', 'sts', 'web'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'READY', 'AGE'])
      assert.equal(t.rows[0][1], '3/3')
      const events = (await api('GET', `/api/v1/namespaces/${ns}/events`)).body.items
        .filter((e) => e.reason === 'SuccessfulCreate' && e.involvedObject.kind === 'StatefulSet')
        .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      assert.deepEqual(
        events.map((e) => e.message),
        ['web-0', 'web-1', 'web-2'].map((p) => `create Pod ${p} in StatefulSet web successful`),
      )
      const described = (await k(['describe', 'sts', 'web'])).stdout
      assert.match(described, /^Replicas:\s+3 desired \| 3 total$/m)
      assert.match(described, /^Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed$/m)
      // A new image rolls from web-2 down; rollout history lists both revisions and undo brings the first back.
      await k(['set', 'image', 'statefulset/web', 'c=nginx:1.27'])
      await k(['rollout', 'status', 'statefulset/web', '--timeout=120s'])
      const history = parseTable(
        (await k(['rollout', 'history', 'statefulset/web'])).stdout.replace(/^statefulset\.apps\/web\s*$/m, ''),
      )
      assert.deepEqual(
        history.rows.map((r) => r[0]),
        ['1', '2'],
      )
      assert.match((await k(['rollout', 'undo', 'statefulset/web'])).stdout, /^statefulset\.apps\/web rolled back$/m)
      await waitFor('web back on nginx:1.25', async () => {
        const all = await live('app=web')
        const set = (await api('GET', `/apis/apps/v1/namespaces/${ns}/statefulsets/web`)).body
        return all.length === 3 &&
          all.every((p) => p.spec.containers[0].image === 'nginx:1.25' && isReady(p)) &&
          set.status.currentRevision === set.status.updateRevision
          ? true
          : undefined
      })
      const web1 = (await api('GET', `/api/v1/namespaces/${ns}/pods/web-1`)).body
      assert.equal(web1.spec.hostname, 'web-1')
      assert.equal(web1.spec.subdomain, 'web')
      assert.equal(web1.metadata.labels['statefulset.kubernetes.io/pod-name'], 'web-1')
      assert.match((await k(['scale', 'sts', 'web', '--replicas=1'])).stdout, /^statefulset\.apps\/web scaled$/m)
      await waitFor('only web-0 left', async () => {
        const names = (await pods('app=web')).map((p) => p.metadata.name)
        return names.length === 1 && names[0] === 'web-0' ? true : undefined
      })
    })

    /** An RC pod on the drain node (tolerating its taint) and a gated pod on node-1, both app=guarded-<minAvailable>. */
    async function guardedPods(minAvailable) {
      const rc = {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: `guarded-${minAvailable}` },
        spec: {
          replicas: 1,
          selector: { app: `guarded-${minAvailable}`, rc: `g${minAvailable}` },
          template: {
            metadata: { labels: { app: `guarded-${minAvailable}`, rc: `g${minAvailable}` } },
            spec: {
              nodeSelector: { 'kubernetes.io/hostname': drainNode },
              tolerations: tolerate,
              containers: [{ name: 'c', image: 'nginx' }],
            },
          },
        },
      }
      const other = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `other-${minAvailable}`, labels: { app: `guarded-${minAvailable}` } },
        spec: {
          nodeName: 'node-1',
          readinessGates: [{ conditionType: GATE }],
          containers: [{ name: 'c', image: 'nginx' }],
        },
      }
      const pdb = {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'guard' },
        spec: { minAvailable, selector: { matchLabels: { app: `guarded-${minAvailable}` } } },
      }
      await k(['apply', '-f', '-'], { input: yaml(rc, other, pdb) })
      const onNode = await waitFor('the guarded pod running on the drain node', async () => {
        const [p] = (await live(`rc=g${minAvailable}`)).filter((x) => x.spec.nodeName === drainNode && isReady(x))
        return p
      })
      return { onNode, other: other.metadata.name }
    }
    const openGate = (pod) =>
      api(
        'PATCH',
        `/api/v1/namespaces/${ns}/pods/${pod}/status`,
        { status: { conditions: [{ type: GATE, status: 'True' }] } },
        {
          'content-type': 'application/strategic-merge-patch+json',
        },
      )
    const budget = async () => (await api('GET', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/guard`)).body

    it('kubectl drain --ignore-daemonsets with a PodDisruptionBudget blocks, then proceeds once the budget allows', async () => {
      // A daemon set on the drain node too: drain leaves it to --ignore-daemonsets.
      await k(['apply', '-f', '-'], { input: yaml(daemonSet('tolerant', 'nginx:1.25', tolerate)) })
      await waitFor('the daemon pod on the drain node', async () =>
        (await live('app=tolerant')).some((p) => p.spec.nodeName === drainNode && isReady(p)) ? true : undefined,
      )
      const { onNode, other } = await guardedPods(1)
      const pdb = await waitFor('the budget computed', async () => {
        const b = await budget()
        return b.status?.expectedPods === 2 && b.status.currentHealthy === 1 ? b : undefined
      })
      assert.equal(pdb.status.disruptionsAllowed, 0)
      const t = parseTable((await k(['get', 'pdb'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'])
      assert.deepEqual(t.rows[0].slice(0, 4), ['guard', '1', 'N/A', '0'])

      const drain = kubectl(v, ['drain', drainNode, '--ignore-daemonsets', '--timeout=90s'], { timeout: 120_000 })
      await sleep(7000)
      // Refused so far: the guarded pod still runs.
      const still = (await api('GET', `/api/v1/namespaces/${ns}/pods/${onNode.metadata.name}`)).body
      assert.equal(still.metadata.deletionTimestamp, undefined)
      assert.equal((await openGate(other)).status, 200)
      const done = await drain
      assert.match(
        done.stderr,
        /error when evicting pods\/"[^"]+" -n "[^"]+" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
      )
      assert.match(done.stdout, new RegExp(`node/${drainNode} cordoned`))
      assert.match(done.stdout, new RegExp(`pod/${onNode.metadata.name} evicted`))
      assert.match(done.stdout, new RegExp(`node/${drainNode} drained`))
      assert.match(done.stderr, /Warning: ignoring DaemonSet-managed Pods: .*tolerant-/)
      // The daemon pod stays; the evicted pod is gone; the budget counted the eviction.
      assert.ok((await live('app=tolerant')).some((p) => p.spec.nodeName === drainNode))
      assert.equal((await api('GET', `/api/v1/namespaces/${ns}/pods/${onNode.metadata.name}`)).status, 404)
      await k(['delete', 'pdb', 'guard'])
      await kubectl(v, ['uncordon', drainNode])
    })

    it('kubectl drain times out with kube’s message when the budget never allows', async () => {
      const { onNode, other } = await guardedPods(2)
      assert.equal((await openGate(other)).status, 200)
      await waitFor('2 healthy', async () => ((await budget()).status?.currentHealthy === 2 ? true : undefined))
      const r = await kubectl(v, ['drain', drainNode, '--ignore-daemonsets', '--timeout=8s'], {
        allowFail: true,
        timeout: 60_000,
      })
      assert.notEqual(r.code, 0)
      assert.match(r.stderr, /Cannot evict pod as it would violate the pod's disruption budget\./)
      assert.match(
        r.stderr,
        new RegExp(`error when evicting pods/"${onNode.metadata.name}" -n "${ns}": global timeout reached: 8s`),
      )
      assert.equal(
        (await api('GET', `/api/v1/namespaces/${ns}/pods/${onNode.metadata.name}`)).body.metadata.deletionTimestamp,
        undefined,
      )
      await kubectl(v, ['uncordon', drainNode])
    })

    it('a 150-pod service gets two EndpointSlices', async () => {
      const rc = {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'big' },
        spec: {
          replicas: 150,
          selector: { app: 'big' },
          template: {
            metadata: { labels: { app: 'big' } },
            spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
          },
        },
      }
      const svc = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'big' },
        spec: { selector: { app: 'big' }, ports: [{ port: 80, targetPort: 'http' }] },
      }
      await k(['apply', '-f', '-'], { input: yaml(svc, rc) })
      const slices = await waitFor(
        '150 ready endpoints',
        async () => {
          const items = (
            await api(
              'GET',
              `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dbig`,
            )
          ).body.items
          const ready = items.flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions.ready))
          return ready.length === 150 ? items : undefined
        },
        180_000,
      )
      // How kube's reconciler packs them depends on how many pods each sync found ready: endpoints fill the slices
      // being updated, then an unchanged slice only when all the rest fit in it, else a new slice (pods that start
      // together can give 79 + 71, one by one 100 + 50). Two slices of at most 100 either way.
      const sizes = slices.map((s) => s.endpoints.length)
      assert.equal(sizes.length, 2)
      assert.equal(sizes[0] + sizes[1], 150)
      assert.ok(Math.max(...sizes) <= 100, `slices of ${sizes.join(' and ')} endpoints`)
      const t = parseTable((await k(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=big'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'])
      assert.equal(t.rows.length, 2)
      const more = []
      for (const row of t.rows) {
        assert.match(row[0], /^big-[a-z0-9]{5}$/)
        assert.deepEqual(row.slice(1, 3), ['IPv4', '8080'])
        const m = /^10\.244\.\d+\.\d+,10\.244\.\d+\.\d+,10\.244\.\d+\.\d+ \+ (\d+) more\.\.\.$/.exec(row[3])
        assert.ok(m, row[3])
        more.push(Number(m[1]) + 3)
      }
      assert.deepEqual(
        more.sort((a, b) => a - b),
        [...sizes].sort((a, b) => a - b),
      )
      await k(['delete', 'rc', 'big', '--wait=false'])
    })

    it('bad input for each kind is refused with kube’s messages', async () => {
      const bad = [
        [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            metadata: { name: 'bad' },
            spec: {
              ...daemonSet('bad', 'nginx').spec,
              updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
            },
          },
          /The DaemonSet "bad" is invalid: spec\.updateStrategy\.rollingUpdate\.maxSurge: Invalid value: intstr\.IntOrString\{Type:0, IntVal:1, StrVal:""\}: may not be set when maxUnavailable is non-zero/,
        ],
        [
          {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            metadata: { name: 'bad' },
            spec: {
              serviceName: 'x',
              podManagementPolicy: 'Eager',
              selector: { matchLabels: { a: 'b' } },
              template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
            },
          },
          /The StatefulSet "bad" is invalid: spec\.podManagementPolicy: Invalid value: "Eager": must be 'OrderedReady' or 'Parallel'/,
        ],
        [
          {
            apiVersion: 'policy/v1',
            kind: 'PodDisruptionBudget',
            metadata: { name: 'bad' },
            spec: { minAvailable: '120%', selector: { matchLabels: { a: 'b' } } },
          },
          /The PodDisruptionBudget "bad" is invalid: spec\.minAvailable: Invalid value: intstr\.IntOrString\{Type:1, IntVal:0, StrVal:"120%"\}: must not be greater than 100%/,
        ],
        [
          { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'bad' }, revision: -1, data: {} },
          /The ControllerRevision "bad" is invalid: revision: Invalid value: -1: must be greater than or equal to 0/,
        ],
      ]
      for (const [obj, message] of bad) {
        const r = await k(['create', '-f', '-'], { input: yaml(obj), allowFail: true })
        assert.notEqual(r.code, 0)
        assert.match(r.stderr, message)
      }
      const typo = await k(['create', '-f', '-'], {
        input: yaml({
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'typo' },
          spec: { replicas: 'three' },
        }),
        allowFail: true,
      })
      assert.notEqual(typo.code, 0)
      assert.match(typo.stderr, /replicas/)
      const immutable = await k(['patch', 'sts', 'web', '--type=merge', '-p', '{"spec":{"serviceName":"other"}}'], {
        allowFail: true,
      })
      assert.match(
        immutable.stderr,
        /spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden/,
      )
      const selector = await k(
        ['patch', 'ds', 'agent', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"agent","x":"y"}}}}'],
        { allowFail: true },
      )
      assert.match(selector.stderr, /spec\.selector: Invalid value: .*: field is immutable/)
    })
  })
}
