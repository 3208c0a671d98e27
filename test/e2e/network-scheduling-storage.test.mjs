// A manifest as charts and docs bring it, applied with kubectl: a NetworkPolicy, a PriorityClass, a default
// StorageClass, a Pod naming the class and a claim naming none. kubectl finds the kinds (no "no matches for kind"),
// prints kube's tables (the `(default)` class, the system priority classes), the Priority and DefaultStorageClass
// admission plugins fill in the pod's priority and the claim's class, and kube's refusals come back as kubectl shows
// them.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, parseTable, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('classes')
const pcName = `${ns}-high`
const scName = `${ns}-fast`

// The policy names its port's protocol: its rules are atomic lists, so a rule the server defaulted (protocol TCP)
// differs from the manifest's and kubectl's three-way patch re-sends it on every apply ("configured").
const manifest = `
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: ${pcName}
value: 100000
description: workloads that come first
preemptionPolicy: Never
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${scName}
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: example.com/fast
allowVolumeExpansion: true
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: db-ingress
  namespace: ${ns}
spec:
  podSelector:
    matchLabels:
      app: db
  ingress:
  - from:
    - podSelector:
        matchLabels:
          app: web
    ports:
    - protocol: TCP
      port: 5432
---
apiVersion: v1
kind: Pod
metadata:
  name: db
  namespace: ${ns}
  labels:
    app: db
spec:
  priorityClassName: ${pcName}
  containers:
  - name: main
    image: postgres:16
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: ${ns}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
`

before(async () => {
  await kubectl(V, ['create', 'namespace', ns])
})
after(async () => {
  await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  await kubectl(V, ['delete', 'priorityclass', pcName], { allowFail: true })
  await kubectl(V, ['delete', 'storageclass', scName], { allowFail: true })
})

describe('NetworkPolicy, PriorityClass and StorageClass with kubectl', () => {
  it('kubectl apply takes the manifest, and applying it again changes nothing', async () => {
    const first = await kubectl(V, ['apply', '-f', '-'], { input: manifest })
    assert.match(first.stdout, new RegExp(`priorityclass.scheduling.k8s.io/${pcName} created`))
    assert.match(first.stdout, new RegExp(`storageclass.storage.k8s.io/${scName} created`))
    assert.match(first.stdout, /networkpolicy.networking.k8s.io\/db-ingress created/)
    assert.match(first.stdout, /pod\/db created/)
    assert.match(first.stdout, /persistentvolumeclaim\/data created/)
    const again = await kubectl(V, ['apply', '-f', '-'], { input: manifest })
    assert.equal(again.stdout.match(/unchanged/g)?.length, 5, again.stdout)
  })

  it('admission resolved the pod priority and the claim class', async () => {
    const pod = JSON.parse((await kubectl(V, ['get', 'pod', 'db', '-n', ns, '-o', 'json'])).stdout)
    assert.deepEqual(
      [pod.spec.priorityClassName, pod.spec.priority, pod.spec.preemptionPolicy],
      [pcName, 100000, 'Never'],
    )
    const pvc = JSON.parse((await kubectl(V, ['get', 'pvc', 'data', '-n', ns, '-o', 'json'])).stdout)
    assert.equal(pvc.spec.storageClassName, scName)
    assert.equal(pvc.status.phase, 'Pending')
  })

  it('kubectl prints the tables kube prints, by short name', async () => {
    for (const version of ['1.27', '1.33']) {
      const sc = parseTable((await kubectl(version, ['get', 'sc'])).stdout)
      assert.deepEqual(sc.header, [
        'NAME',
        'PROVISIONER',
        'RECLAIMPOLICY',
        'VOLUMEBINDINGMODE',
        'ALLOWVOLUMEEXPANSION',
        'AGE',
      ])
      const row = sc.rows.find((r) => r[0].startsWith(scName))
      assert.deepEqual(row?.slice(0, 5), [`${scName} (default)`, 'example.com/fast', 'Delete', 'Immediate', 'true'])
      const pc = parseTable((await kubectl(version, ['get', 'pc'])).stdout)
      assert.deepEqual(pc.header, ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'])
      const byName = Object.fromEntries(pc.rows.map((r) => [r[0], r]))
      assert.deepEqual(byName['system-node-critical']?.slice(1, 3), ['2000001000', 'false'])
      assert.deepEqual(byName['system-cluster-critical']?.slice(1, 3), ['2000000000', 'false'])
      assert.deepEqual([...(byName[pcName]?.slice(1, 3) ?? []), byName[pcName]?.[4]], ['100000', 'false', 'Never'])
      const np = parseTable((await kubectl(version, ['get', 'netpol', '-n', ns])).stdout)
      assert.deepEqual(np.header, ['NAME', 'POD-SELECTOR', 'AGE'])
      assert.deepEqual(np.rows[0]?.slice(0, 2), ['db-ingress', 'app=db'])
    }
    const resources = (await kubectl(V, ['api-resources', '--no-headers'])).stdout
    for (const [name, short] of [
      ['networkpolicies', 'netpol'],
      ['priorityclasses', 'pc'],
      ['storageclasses', 'sc'],
    ])
      assert.match(resources, new RegExp(`^${name}\\s+${short}\\s`, 'm'))
  })

  it('kubectl describe reads them', async () => {
    const np = (await kubectl(V, ['describe', 'netpol', 'db-ingress', '-n', ns])).stdout
    assert.match(np, /PodSelector:\s+app=db/)
    assert.match(np, /To Port: 5432\/TCP/)
    assert.match(np, /From:\s+PodSelector: app=web/)
    const sc = (await kubectl(V, ['describe', 'sc', scName])).stdout
    assert.match(sc, /IsDefaultClass:\s+Yes/)
    assert.match(sc, /Provisioner:\s+example.com\/fast/)
    const pc = (await kubectl(V, ['describe', 'pc', pcName])).stdout
    assert.match(pc, /Value:\s+100000/)
    assert.match(pc, /PreemptionPolicy:\s+Never/)
  })

  it('kubectl create priorityclass (kubectl 1.33 sends it as protobuf)', async () => {
    for (const version of ['1.27', '1.33']) {
      const name = `${ns}-gen-${version.replace('.', '')}`
      await kubectl(version, [
        'create',
        'priorityclass',
        name,
        '--value=42',
        '--description=made by kubectl',
        '--preemption-policy=Never',
      ])
      const pc = JSON.parse((await kubectl(V, ['get', 'pc', name, '-o', 'json'])).stdout)
      assert.deepEqual(
        [pc.value, pc.description, pc.preemptionPolicy, pc.globalDefault],
        [42, 'made by kubectl', 'Never', undefined],
      )
      await kubectl(V, ['delete', 'pc', name])
    }
  })

  it('refusals read as kube words them', async () => {
    const unknown = await kubectl(
      V,
      [
        'run',
        'nobody',
        '-n',
        ns,
        '--image=nginx',
        '--overrides',
        JSON.stringify({ spec: { priorityClassName: 'no-such-class' } }),
      ],
      {
        allowFail: true,
      },
    )
    assert.notEqual(unknown.code, 0)
    assert.match(unknown.stderr, /pods "nobody" is forbidden: no PriorityClass with name no-such-class was found/)
    const system = await kubectl(V, ['delete', 'pc', 'system-node-critical'], { allowFail: true })
    assert.match(
      system.stderr,
      /priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted/,
    )
    const revalue = await kubectl(V, ['patch', 'pc', pcName, '--type=merge', '-p', '{"value":5}'], { allowFail: true })
    assert.match(revalue.stderr, /value: Forbidden: may not be changed in an update\./)
    const reprovision = await kubectl(
      V,
      ['patch', 'sc', scName, '--type=merge', '-p', '{"provisioner":"example.com/slow"}'],
      {
        allowFail: true,
      },
    )
    assert.match(reprovision.stderr, /provisioner: Forbidden: updates to provisioner are forbidden\./)
    const badPolicy = await kubectl(V, ['apply', '-f', '-'], {
      allowFail: true,
      input: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: bad, namespace: ${ns}}
spec:
  podSelector: {}
  policyTypes: [Sideways]
`,
    })
    assert.match(
      badPolicy.stderr,
      /spec.policyTypes\[0\]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"/,
    )
  })
})
