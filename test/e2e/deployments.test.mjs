// kubectl 1.27 and 1.33 and apps/v1 Deployments against a real server: the Kubernetes docs manifest (nginx Deployment
// of 3 + Service, and a ConfigMap mounted as a volume) applies cleanly and the Service gets 3 endpoints; rollout
// status after set image, history, undo, restart, pause/resume; scale; create deployment; tables; bad input.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(what, fn, ms = 30_000) {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined && v !== false) return v
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`)
    await sleep(200)
  }
}

// kubernetes.io/docs/concepts/workloads/controllers/deployment/ (nginx-deployment.yaml), and the Service of
// kubernetes.io/docs/concepts/services-networking/service/, with a ConfigMap mounted as a volume as the
// "configure a pod to use a ConfigMap" page does.
const DOCS_MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: nginx-config
data:
  index.html: |
    hello from a ConfigMap
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
        volumeMounts:
        - name: html
          mountPath: /usr/share/nginx/html
      volumes:
      - name: html
        configMap:
          name: nginx-config
---
apiVersion: v1
kind: Service
metadata:
  name: my-service
spec:
  selector:
    app: nginx
  ports:
    - protocol: TCP
      port: 80
      targetPort: 80
`

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: deployments`, () => {
    const ns = uniqueNs(`dep${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, ['-n', ns, ...args], opts)
    const rollout = (name = 'nginx-deployment') => k(['rollout', 'status', `deployment/${name}`, '--timeout=60s'])
    const deploymentObj = async (name = 'nginx-deployment') =>
      (await api('GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).body
    const replicaSets = async () =>
      (await api('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body.items.sort(
        (a, b) =>
          Number(a.metadata.annotations['deployment.kubernetes.io/revision']) -
          Number(b.metadata.annotations['deployment.kubernetes.io/revision']),
      )

    before(async () => {
      await kubectl(v, ['create', 'namespace', ns])
    })
    after(async () => {
      await kubectl(v, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('the docs manifest applies cleanly and the Service gets 3 endpoints', async () => {
      const r = await k(['apply', '-f', '-'], { input: DOCS_MANIFEST })
      assert.equal(
        r.stdout,
        'configmap/nginx-config created\ndeployment.apps/nginx-deployment created\nservice/my-service created\n',
      )
      assert.equal(r.stderr, '')
      const status = await rollout()
      assert.match(status.stdout, /deployment "nginx-deployment" successfully rolled out/)
      const addresses = await waitFor('3 endpoints', async () => {
        const ep = (await api('GET', `/api/v1/namespaces/${ns}/endpoints/my-service`)).body
        const ips = (ep?.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip))
        return ips.length === 3 ? ips : undefined
      })
      assert.equal(new Set(addresses).size, 3)
      const t = parseTable((await k(['get', 'deployments'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'])
      assert.deepEqual(t.rows[0].slice(0, 4), ['nginx-deployment', '3/3', '3', '3'])
      const wide = parseTable((await k(['get', 'deploy', '-o', 'wide'])).stdout)
      assert.deepEqual(wide.header.slice(5), ['CONTAINERS', 'IMAGES', 'SELECTOR'])
      assert.deepEqual(wide.rows[0].slice(5), ['nginx', 'nginx:1.14.2', 'app=nginx'])
      const rs = parseTable((await k(['get', 'rs'])).stdout)
      assert.deepEqual(rs.header, ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'])
      assert.match(rs.rows[0][0], /^nginx-deployment-[4-9bcdf]+$/)
      assert.deepEqual(rs.rows[0].slice(1, 4), ['3', '3', '3'])
      const describe = await k(['describe', 'deployment', 'nginx-deployment'])
      assert.match(describe.stdout, /Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable/)
      assert.match(describe.stdout, /NewReplicaSet:\s+nginx-deployment-[4-9bcdf]+ \(3\/3 replicas created\)/)
    })

    it('set image, then rollout status returns once the new ReplicaSet is rolled out; history shows both', async () => {
      const set = await k(['set', 'image', 'deployment/nginx-deployment', 'nginx=nginx:1.16.1'])
      assert.equal(set.stdout, 'deployment.apps/nginx-deployment image updated\n')
      assert.match((await rollout()).stdout, /successfully rolled out/)
      const d = await deploymentObj()
      assert.equal(d.status.updatedReplicas, 3)
      assert.equal(d.status.availableReplicas, 3)
      assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '2')
      const history = parseTable(
        (await k(['rollout', 'history', 'deployment/nginx-deployment'])).stdout.split('\n').slice(1).join('\n'),
      )
      assert.deepEqual(history.header, ['REVISION', 'CHANGE-CAUSE'])
      assert.deepEqual(history.rows, [
        ['1', '<none>'],
        ['2', '<none>'],
      ])
      const rev2 = await k(['rollout', 'history', 'deployment/nginx-deployment', '--revision=2'])
      assert.match(rev2.stdout, /Image:\s+nginx:1\.16\.1/)
    })

    it('rollout undo brings revision 1 back as revision 3', async () => {
      const undo = await k(['rollout', 'undo', 'deployment/nginx-deployment'])
      assert.equal(undo.stdout, 'deployment.apps/nginx-deployment rolled back\n')
      await rollout()
      const d = await deploymentObj()
      assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.14.2')
      assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '3')
      const sets = await replicaSets()
      assert.equal(sets.length, 2)
      assert.equal(sets[1].spec.template.spec.containers[0].image, 'nginx:1.14.2')
      assert.equal(sets[1].metadata.annotations['deployment.kubernetes.io/revision-history'], '1')
      const history = (await k(['rollout', 'history', 'deployment/nginx-deployment'])).stdout
      assert.match(history, /^2\s+<none>$/m)
      assert.match(history, /^3\s+<none>$/m)
    })

    it('rollout restart rolls out a new ReplicaSet with the restartedAt annotation', async () => {
      const before = (await replicaSets()).length
      const r = await k(['rollout', 'restart', 'deployment/nginx-deployment'])
      assert.equal(r.stdout, 'deployment.apps/nginx-deployment restarted\n')
      await rollout()
      const d = await deploymentObj()
      assert.ok(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt'])
      assert.equal((await replicaSets()).length, before + 1)
    })

    it('rollout pause holds a template change until resume', async () => {
      assert.equal(
        (await k(['rollout', 'pause', 'deployment/nginx-deployment'])).stdout,
        'deployment.apps/nginx-deployment paused\n',
      )
      const count = (await replicaSets()).length
      await k(['set', 'image', 'deployment/nginx-deployment', 'nginx=nginx:1.25'])
      await waitFor('paused observed', async () => {
        const d = await deploymentObj()
        const c = (d.status.conditions ?? []).find((x) => x.type === 'Progressing')
        return d.status.observedGeneration === d.metadata.generation && c?.reason === 'DeploymentPaused'
      })
      assert.equal((await replicaSets()).length, count)
      const undo = await k(['rollout', 'undo', 'deployment/nginx-deployment'], { allowFail: true })
      assert.notEqual(undo.code, 0)
      assert.match(undo.stderr, /you cannot rollback a paused deployment; resume it first/)
      assert.equal(
        (await k(['rollout', 'resume', 'deployment/nginx-deployment'])).stdout,
        'deployment.apps/nginx-deployment resumed\n',
      )
      await rollout()
      assert.equal((await deploymentObj()).status.updatedReplicas, 3)
    })

    it('scale deployment', async () => {
      const r = await k(['scale', 'deployment', 'nginx-deployment', '--replicas=5'])
      assert.equal(r.stdout, 'deployment.apps/nginx-deployment scaled\n')
      await waitFor('5/5', async () => {
        const t = parseTable((await k(['get', 'deploy', 'nginx-deployment'])).stdout)
        return t.rows[0]?.[1] === '5/5' && t.rows[0]?.[3] === '5'
      })
      await rollout()
    })

    it('get --subresource=scale prints the Scale as kube-apiserver tables it (NAME DESIRED AVAILABLE AGE)', async () => {
      const t = parseTable((await k(['get', 'deploy', 'nginx-deployment', '--subresource=scale'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'DESIRED', 'AVAILABLE', 'AGE'])
      assert.deepEqual(t.rows[0]?.slice(0, 3), ['nginx-deployment', '5', '5'])
    })

    it('create deployment', async () => {
      const r = await k(['create', 'deployment', 'hello', '--image=nginx:1.25', '--replicas=2'])
      assert.equal(r.stdout, 'deployment.apps/hello created\n')
      await rollout('hello')
      const d = await deploymentObj('hello')
      assert.deepEqual(d.spec.selector, { matchLabels: { app: 'hello' } })
      assert.deepEqual(d.spec.strategy, {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      })
    })

    it('bad input: template labels the selector does not match, and a selector change', async () => {
      const bad = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  selector:
    matchLabels:
      app: one
  template:
    metadata:
      labels:
        app: two
    spec:
      containers:
      - name: c
        image: nginx
`
      const r = await k(['apply', '-f', '-'], { input: bad, allowFail: true })
      assert.notEqual(r.code, 0)
      assert.match(
        r.stderr,
        /The Deployment "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"two"\}: `selector` does not match template `labels`/,
      )
      const patch = await k(
        ['patch', 'deployment', 'hello', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"other"}}}}'],
        { allowFail: true },
      )
      assert.notEqual(patch.code, 0)
      assert.match(
        patch.stderr,
        /spec\.selector: Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"app":"other"\}, MatchExpressions:\[\]v1\.LabelSelectorRequirement\(nil\)\}: field is immutable/,
      )
      const strategy = await k(
        [
          'patch',
          'deployment',
          'hello',
          '--type=merge',
          '-p',
          '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":0}}}}',
        ],
        {
          allowFail: true,
        },
      )
      assert.match(
        strategy.stderr,
        /spec\.strategy\.rollingUpdate\.maxUnavailable: Invalid value: intstr\.IntOrString\{Type:0, IntVal:0, StrVal:""\}: may not be 0 when `maxSurge` is 0/,
      )
      const rs = await k(['apply', '-f', '-'], {
        input: 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: bad\nspec:\n  replicas: -1\n',
        allowFail: true,
      })
      assert.match(rs.stderr, /The ReplicaSet "bad" is invalid: /)
      assert.match(rs.stderr, /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/)
      assert.match(rs.stderr, /spec\.selector: Required value/)
    })

    it('explain reads the apps/v1 OpenAPI', async () => {
      const r = await k(['explain', 'deployment.spec.strategy.rollingUpdate'])
      assert.match(r.stdout, /GROUP:\s+apps/)
      assert.match(r.stdout, /KIND:\s+Deployment/)
      assert.match(r.stdout, /maxSurge\s+<IntOrString>/)
      assert.match(r.stdout, /maxUnavailable\s+<IntOrString>/)
    })

    it('delete deployment takes its ReplicaSets and pods', async () => {
      assert.equal((await k(['delete', 'deployment', 'hello'])).stdout, 'deployment.apps "hello" deleted\n')
      await waitFor('hello pods gone', async () => {
        const pods = (await api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dhello`)).body.items
        const rss = (await api('GET', `/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3Dhello`)).body
          .items
        return pods.length === 0 && rss.length === 0
      })
    })
  })
}
