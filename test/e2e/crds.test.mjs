// CustomResourceDefinitions end to end with the clients operators use: the CronTab example of the Kubernetes docs
// (schema, printer columns, short name ct, a CEL rule) through kubectl (apply, wait for Established, get, explain,
// scale, get -w, delete), the python client's CustomObjectsApi and client-node's (list, watch, patch) and a
// client-node informer on the custom resource.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { CustomObjectsApi, KubeConfig, makeInformer, Watch } from '@kubernetes/client-node'
import { KUBECONFIG, KUBECTL_DIR, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const GROUP = `stable${Date.now().toString(36)}.example.com`
const CRD_NAME = `crontabs.${GROUP}`
const V = '1.33'

const crdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${CRD_NAME}
spec:
  group: ${GROUP}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              description: CronTabSpec is the desired state of a CronTab.
              x-kubernetes-validations:
                - rule: "self.replicas <= 5 || self.image.startsWith('big/')"
                  message: "only big/ images may run more than 5 replicas"
              properties:
                cronSpec:
                  type: string
                  description: The schedule, in cron format.
                image:
                  type: string
                  description: The image to run.
                replicas:
                  type: integer
                  description: How many copies to run.
                  default: 1
            status:
              type: object
              properties:
                replicas:
                  type: integer
                labelSelector:
                  type: string
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
          labelSelectorPath: .status.labelSelector
      additionalPrinterColumns:
        - name: Spec
          type: string
          description: The cron spec defining the interval a CronJob is run
          jsonPath: .spec.cronSpec
        - name: Replicas
          type: integer
          description: The number of jobs launched by the CronJob
          jsonPath: .spec.replicas
        - name: Age
          type: date
          jsonPath: .metadata.creationTimestamp
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
      - ct
    categories:
      - all
`

const cronTab = (ns, name, spec) => `apiVersion: ${GROUP}/v1
kind: CronTab
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${Object.entries(spec)
  .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
  .join('\n')}
`

const ns = uniqueNs('crd')
const kc = new KubeConfig()
kc.loadFromFile(KUBECONFIG)
const custom = kc.makeApiClient(CustomObjectsApi)

/** Runs `kubectl get ... -w` until `until(stdout)` holds (or the timeout), then stops it. */
function watchKubectl(args, until, timeout = 30_000) {
  const bin = join(KUBECTL_DIR, `kubectl.${V}`)
  const child = spawn(bin, ['--kubeconfig', KUBECONFIG, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      child.kill('SIGTERM')
      resolve(out)
    }
    const timer = setTimeout(done, timeout)
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d
      if (until(out)) done()
    })
  })
}

describe('CustomResourceDefinitions', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    await kubectl(V, ['delete', 'crd', CRD_NAME, '--wait=false'], { allowFail: true })
  })

  it('kubectl apply the CRD and wait for Established', async () => {
    const applied = await kubectl(V, ['apply', '-f', '-'], { input: crdYaml })
    assert.match(applied.stdout, new RegExp(`customresourcedefinition.apiextensions.k8s.io/${CRD_NAME} created`))
    const waited = await kubectl(V, ['wait', '--for', 'condition=established', '--timeout=30s', `crd/${CRD_NAME}`])
    assert.match(waited.stdout, /condition met/)
  })

  it('kubectl creates a CronTab; get ct shows the printer columns; unknown fields are pruned', async () => {
    const manifest = cronTab(ns, 'my-new-cron-object', {
      cronSpec: '* * * * */5',
      image: 'my-awesome-cron-image',
      extra: 'x',
    })
    // kubectl asks for fieldValidation=Strict by default: the unknown field is refused, as kube does...
    const strict = await kubectl(V, ['apply', '-f', '-'], { input: manifest, allowFail: true })
    assert.match(strict.stderr, /strict decoding error: unknown field "spec.extra"/)
    // ...warned about with --validate=warn, and pruned.
    const created = await kubectl(V, ['apply', '--validate=warn', '-f', '-'], { input: manifest })
    assert.match(created.stdout, /crontab.stable[a-z0-9]*.example.com\/my-new-cron-object created/)
    assert.match(created.stderr, /unknown field "spec.extra"/)
    const table = parseTable((await kubectl(V, ['get', 'ct', '-n', ns])).stdout)
    assert.deepEqual(table.header, ['NAME', 'SPEC', 'REPLICAS', 'AGE'])
    assert.deepEqual(table.rows[0].slice(0, 3), ['my-new-cron-object', '* * * * */5', '1'])
    const got = await api('GET', `/apis/${GROUP}/v1/namespaces/${ns}/crontabs/my-new-cron-object`)
    assert.deepEqual(got.body.spec, { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 })
  })

  it('kubectl explain crontab.spec prints the schema (kubectl 1.27 and 1.33)', async () => {
    for (const v of ['1.27', V]) {
      const explained = await kubectl(v, ['explain', 'crontab.spec'])
      assert.match(explained.stdout, /KIND:\s+CronTab/)
      assert.match(explained.stdout, /CronTabSpec is the desired state of a CronTab\./)
      assert.match(explained.stdout, /cronSpec\s+<string>/)
      assert.match(explained.stdout, /The schedule, in cron format\./)
      assert.match(explained.stdout, /replicas\s+<integer>/)
    }
  })

  it('kubectl get all lists custom resources in the category all', async () => {
    const all = await kubectl(V, ['get', 'all', '-n', ns])
    assert.match(all.stdout, /crontab\.stable[a-z0-9]*\.example\.com\/my-new-cron-object/)
  })

  it('a CEL-violating spec is refused with 422 and the rule message', async () => {
    const r = await kubectl(V, ['apply', '-f', '-'], {
      input: cronTab(ns, 'too-many', { cronSpec: '* * * * *', image: 'small', replicas: 9 }),
      allowFail: true,
    })
    assert.notEqual(r.code, 0)
    assert.match(r.stderr, /only big\/ images may run more than 5 replicas/)
    const raw = await api('POST', `/apis/${GROUP}/v1/namespaces/${ns}/crontabs`, {
      apiVersion: `${GROUP}/v1`,
      kind: 'CronTab',
      metadata: { name: 'too-many' },
      spec: { image: 'small', replicas: 9 },
    })
    assert.equal(raw.status, 422)
    assert.deepEqual(raw.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": only big/ images may run more than 5 replicas',
        field: 'spec',
      },
    ])
  })

  it('a status update through /status; kubectl scale; kubectl get ct -w sees the changes', async () => {
    const path = `/apis/${GROUP}/v1/namespaces/${ns}/crontabs/my-new-cron-object`
    const current = (await api('GET', path)).body
    const status = await api('PUT', `${path}/status`, {
      ...current,
      status: { replicas: 1, labelSelector: 'app=cron' },
    })
    assert.equal(status.status, 200, status.text)
    assert.deepEqual(status.body.status, { replicas: 1, labelSelector: 'app=cron' })
    const watching = watchKubectl(['get', 'ct', '-n', ns, '-w', '--no-headers'], (out) => /\s3\s/.test(out))
    await new Promise((r) => setTimeout(r, 1000))
    const scaled = await kubectl(V, ['scale', '-n', ns, 'crontab/my-new-cron-object', '--replicas=3'])
    assert.match(scaled.stdout, /scaled/)
    const seen = await watching
    assert.match(seen, /my-new-cron-object\s+\* \* \* \* \*\/5\s+1\s/)
    assert.match(seen, /my-new-cron-object\s+\* \* \* \* \*\/5\s+3\s/)
    assert.equal((await api('GET', path)).body.spec.replicas, 3)
  })

  it('client-node CustomObjectsApi lists, patches and watches; an informer follows the custom resource', async () => {
    const list = await custom.listNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: ns,
      plural: 'crontabs',
    })
    assert.deepEqual(
      list.items.map((o) => o.metadata.name),
      ['my-new-cron-object'],
    )
    const patched = await custom.patchNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: ns,
      plural: 'crontabs',
      name: 'my-new-cron-object',
      body: [{ op: 'replace', path: '/spec/image', value: 'img:2' }],
    })
    assert.equal(patched.spec.image, 'img:2')
    const events = []
    const watcher = new Watch(kc)
    const req = await watcher.watch(
      `/apis/${GROUP}/v1/namespaces/${ns}/crontabs`,
      { resourceVersion: list.metadata.resourceVersion },
      (type, obj) => events.push([type, obj.metadata.name]),
      () => {},
    )
    const informer = makeInformer(kc, `/apis/${GROUP}/v1/namespaces/${ns}/crontabs`, () =>
      custom.listNamespacedCustomObject({ group: GROUP, version: 'v1', namespace: ns, plural: 'crontabs' }),
    )
    const added = []
    informer.on('add', (o) => added.push(o.metadata.name))
    await informer.start()
    await custom.createNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: ns,
      plural: 'crontabs',
      body: { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'from-node' }, spec: { image: 'x' } },
    })
    for (let i = 0; i < 100 && !(added.includes('from-node') && events.some(([, n]) => n === 'from-node')); i++)
      await new Promise((r) => setTimeout(r, 100))
    await informer.stop()
    req.abort()
    assert.ok(added.includes('my-new-cron-object') && added.includes('from-node'), JSON.stringify(added))
    assert.deepEqual(
      events.filter(([, n]) => n === 'from-node'),
      [['ADDED', 'from-node']],
    )
  })

  it('python CustomObjectsApi lists, patches and watches', () => {
    const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
    const r = spawnSync(python, [join(import.meta.dirname, 'python', 'custom_objects.py'), ns, GROUP], {
      encoding: 'utf8',
      timeout: 60_000,
      env: process.env,
    })
    assert.equal(r.status, 0, `custom_objects.py exited ${r.status}\n${r.stdout}\n${r.stderr}`)
    const checks = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .map((c) => [c.check, c]),
    )
    assert.ok(checks.list.names.includes('my-new-cron-object'), JSON.stringify(checks.list))
    assert.equal(checks.patch.replicas, 2)
    assert.deepEqual(checks.watch.events, [['ADDED', 'from-python']])
  })

  it('a CronTab with an unqualified finalizer is accepted, and kubectl prints the Warning kube sends', async () => {
    const held = cronTab(ns, 'held', { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' }).replace(
      `  namespace: ${ns}\n`,
      `  namespace: ${ns}\n  finalizers: ["held"]\n`,
    )
    const created = await kubectl(V, ['create', '-f', '-'], { input: held })
    assert.match(
      created.stderr,
      /Warning: metadata\.finalizers: "held": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers/,
    )
  })

  it('a CRD held Terminating by a CronTab takes kubectl label; kubectl delete crd completes once it is released', async () => {
    await kubectl(V, ['delete', 'crd', CRD_NAME, '--wait=false'])
    const got = await kubectl(V, ['get', 'crd', CRD_NAME, '-o', 'json'])
    const crd = JSON.parse(got.stdout)
    assert.deepEqual(crd.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io'])
    assert.ok(crd.metadata.deletionTimestamp)
    // Refused with "name is neither a standard finalizer name nor is it fully qualified" while the core rule was
    // applied to CRDs.
    await kubectl(V, ['label', 'crd', CRD_NAME, 'phase=terminating'])
    await kubectl(V, ['patch', 'ct', 'held', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])
  })

  it('deleting the CRD removes its objects, then the CRD', async () => {
    // Already Terminating (above), possibly gone: kubectl delete waits for it either way.
    await kubectl(V, ['delete', 'crd', CRD_NAME, '--ignore-not-found', '--timeout=60s'])
    const gone = await kubectl(V, ['get', 'crd', CRD_NAME], { allowFail: true })
    assert.match(gone.stderr, /NotFound/)
    // The server's copies of the kind table follow within a second.
    let objects
    for (let i = 0; i < 30; i++) {
      objects = await api('GET', `/apis/${GROUP}/v1/namespaces/${ns}/crontabs`)
      if (objects.status === 404) break
      assert.deepEqual(objects.body.items, [])
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.equal(objects.status, 404)
  })
})
