// Pod defaulting: the sparse kubectl run body comes out as a 1.33 apiserver stores it, every default is idempotent (the
// store defaults PUT bodies too, so a sparse replace must equal the stored pod), and QoS compares quantities exactly.
import { describe, expect, it } from 'vitest'
import { admitPod } from '../../../../src/registry/strategies/pod/pod-admission'
import {
  applyPodDefaults as schemeDefaults,
  defaultPullPolicy,
} from '../../../../src/registry/strategies/pod/pod-defaults'
import { podQOS } from '../../../../src/registry/strategies/pod/pod-qos'

/**
 * Scheme defaults then admission, as the store applies them to a PUT body: without the API access volume the
 * ServiceAccount admission adds only on a create (test/registry/strategies/pod/pod-admission.test.ts), so bodies compare
 * as a replace of a pod created with `automountServiceAccountToken: false` would.
 */
const applyPodDefaults = (pod: Parameters<typeof schemeDefaults>[0]) => {
  schemeDefaults(pod)
  admitPod(pod, { now: new Date(), namespace: 'default' }, pod)
}
import { defaulted, sparse, type Body } from './pod-fixtures'

const twice = (body: Body) => {
  const once = structuredClone(body)
  applyPodDefaults(once)
  const again = structuredClone(once)
  applyPodDefaults(again)
  return { once, again }
}

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
]

describe('applyPodDefaults: the kubectl run body', () => {
  it('gets the scheme and admission defaults kube stores (the API access volume of a create aside: pod-admission.test.ts)', () => {
    expect(defaulted()).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'nginx', labels: { run: 'nginx' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx',
            resources: {},
            imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
        serviceAccountName: 'default',
        serviceAccount: 'default',
        priority: 0,
        preemptionPolicy: 'PreemptLowerPriority',
        tolerations: DEFAULT_TOLERATIONS,
      },
      status: {},
    })
  })

  it('is idempotent: defaulting the stored pod again changes nothing', () => {
    const { once, again } = twice(sparse())
    expect(again).toEqual(once)
  })

  it('a sparse replace body defaults to the stored pod', () => {
    const stored = defaulted()
    expect(defaulted()).toEqual(stored)
  })
})

describe('applyPodDefaults: idempotence on a pod using every defaulted field', () => {
  const rich = (): Body => {
    const p = sparse()
    p.spec.hostNetwork = true
    p.spec.terminationGracePeriodSeconds = -5
    p.spec.initContainers = [
      { name: 'init', image: 'busybox:1.36', resources: { limits: { cpu: '0.5', memory: '1.5Gi' } } },
    ]
    Object.assign(p.spec.containers[0], {
      ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
      env: [
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1000m' } } },
      ],
      resources: { limits: { cpu: '100n', memory: 1073741824 } },
      livenessProbe: { httpGet: { port: 80 } },
      readinessProbe: { exec: { command: ['true'] }, timeoutSeconds: 0 },
      lifecycle: { preStop: { httpGet: { port: 'http' } } },
      volumeMounts: [],
    })
    p.spec.volumes = [
      { name: 'scratch' },
      { name: 'host', hostPath: { path: '/var/log' } },
      { name: 'secret', secret: { secretName: 's' } },
      { name: 'config', configMap: { name: 'c' } },
      { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      {
        name: 'token',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token' } },
            { downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
      {
        name: 'claim',
        ephemeral: {
          volumeClaimTemplate: {
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        },
      },
    ]
    p.spec.nodeSelector = {}
    p.status = { podIP: '10.0.0.1' }
    return p
  }

  it('defaults twice equal defaults once', () => {
    const { once, again } = twice(rich())
    expect(again).toEqual(once)
  })

  it('fills what SetDefaults_Pod, _Container, _Probe, _Volume and friends fill', () => {
    const pod = twice(rich()).once
    const c = pod.spec.containers[0]
    expect(pod.spec.terminationGracePeriodSeconds).toBe(1)
    expect(c.ports).toEqual([
      { containerPort: 80, protocol: 'TCP', hostPort: 80 },
      { containerPort: 53, protocol: 'UDP', hostPort: 53 },
    ])
    expect(c.env[0].valueFrom.fieldRef).toEqual({ fieldPath: 'spec.nodeName', apiVersion: 'v1' })
    expect(c.env[1].valueFrom.resourceFieldRef.divisor).toBe('1')
    // Limits are copied to requests, then rounded up to milli units and written as Quantity.MarshalJSON would
    // (a JSON number becomes its decimal string).
    expect(c.resources).toEqual({
      limits: { cpu: '1m', memory: '1073741824' },
      requests: { cpu: '1m', memory: '1073741824' },
    })
    expect(pod.spec.initContainers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '1536Mi' },
      requests: { cpu: '500m', memory: '1536Mi' },
    })
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    })
    expect(c.readinessProbe.timeoutSeconds).toBe(1)
    expect(c.lifecycle.preStop.httpGet).toEqual({ port: 'http', path: '/', scheme: 'HTTP' })
    // omitempty: empty lists and maps are not stored.
    expect(c).not.toHaveProperty('volumeMounts')
    expect(pod.spec).not.toHaveProperty('nodeSelector')
    expect(pod.spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'host', hostPath: { path: '/var/log', type: '' } },
      { name: 'secret', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'config', configMap: { name: 'c', defaultMode: 420 } },
      {
        name: 'info',
        downwardAPI: {
          items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }],
          defaultMode: 420,
        },
      },
      {
        name: 'token',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            {
              downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace', apiVersion: 'v1' } }] },
            },
          ],
          defaultMode: 420,
        },
      },
      {
        name: 'claim',
        ephemeral: {
          volumeClaimTemplate: {
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: '1Gi' } },
              volumeMode: 'Filesystem',
            },
          },
        },
      },
    ])
    expect(pod.status).toEqual({ podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] })
  })
})

describe('applyPodDefaults: image pull policy', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
    ['registry.example.com:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:v1', 'IfNotPresent'],
    ['', 'IfNotPresent'],
    ['Not A Reference', 'IfNotPresent'],
  ])('%j pulls %s', (image, policy) => {
    expect(defaultPullPolicy(image)).toBe(policy)
  })

  it('keeps an explicit policy', () => {
    expect(defaulted((p) => (p.spec.containers[0].imagePullPolicy = 'Never')).spec.containers[0]!.imagePullPolicy).toBe(
      'Never',
    )
  })
})

describe('applyPodDefaults: admission', () => {
  it('DefaultTolerationSeconds adds nothing a pod already tolerates', () => {
    const pod = defaulted((p) => (p.spec.tolerations = [{ operator: 'Exists' }]))
    expect(pod.spec.tolerations).toEqual([{ operator: 'Exists' }])
  })

  it('DefaultTolerationSeconds adds only the missing toleration', () => {
    const own = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 60,
    }
    const pod = defaulted((p) => (p.spec.tolerations = [own]))
    expect(pod.spec.tolerations).toEqual([own, DEFAULT_TOLERATIONS[0]])
  })

  it('a NoSchedule toleration does not cover the NoExecute defaults', () => {
    const own = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }
    expect(defaulted((p) => (p.spec.tolerations = [own])).spec.tolerations).toEqual([own, ...DEFAULT_TOLERATIONS])
  })

  it('the deprecated serviceAccount fills serviceAccountName and mirrors it', () => {
    const pod = defaulted((p) => (p.spec.serviceAccount = 'builder'))
    expect([pod.spec.serviceAccountName, pod.spec.serviceAccount]).toEqual(['builder', 'builder'])
    const named = defaulted((p) => {
      p.spec.serviceAccountName = 'runner'
      p.spec.serviceAccount = 'stale'
    })
    expect([named.spec.serviceAccountName, named.spec.serviceAccount]).toEqual(['runner', 'runner'])
  })

  it('Priority resolves the built-in classes', () => {
    expect(defaulted((p) => (p.spec.priorityClassName = 'system-node-critical')).spec.priority).toBe(2000001000)
    expect(defaulted((p) => (p.spec.priorityClassName = 'system-cluster-critical')).spec.priority).toBe(2000000000)
  })
})

describe('applyPodDefaults: status conversion', () => {
  it('podIP wins over a disagreeing podIPs', () => {
    const pod = defaulted((p) => (p.status = { podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }))
    expect(pod.status).toEqual({ podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.2' }] })
  })

  it('podIP is filled from podIPs', () => {
    const pod = defaulted((p) => (p.status = { podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }))
    expect(pod.status).toEqual({ podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], podIP: '10.0.0.1' })
  })
})

describe('podQOS', () => {
  const withResources = (...resources: unknown[]) =>
    defaulted((p) => (p.spec.containers = resources.map((r, i) => ({ name: `c${i}`, image: 'nginx', resources: r }))))
  it.each([
    ['no requests or limits', [{}], 'BestEffort'],
    ['zero amounts count as unset', [{ requests: { cpu: '0' } }], 'BestEffort'],
    [
      'cpu 100m request with a 200m limit',
      [{ requests: { cpu: '100m', memory: '1Gi' }, limits: { cpu: '200m', memory: '1Gi' } }],
      'Burstable',
    ],
    [
      'equal cpu and memory requests and limits',
      [{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }],
      'Guaranteed',
    ],
    [
      'equal in different units',
      [{ requests: { cpu: '1000m', memory: '1024Mi' }, limits: { cpu: '1', memory: '1Gi' } }],
      'Guaranteed',
    ],
    ['limits only (requests default to them)', [{ limits: { cpu: '250m', memory: '64Mi' } }], 'Guaranteed'],
    [
      'a sub-unit difference',
      [{ requests: { cpu: '100m', memory: '128974848' }, limits: { cpu: '100m', memory: '129e6' } }],
      'Burstable',
    ],
    ['requests only', [{ requests: { cpu: '1' } }], 'Burstable'],
    ['a limit without memory', [{ limits: { cpu: '1' } }], 'Burstable'],
    ['one container without limits', [{ limits: { cpu: '1', memory: '1Gi' } }, {}], 'Burstable'],
    [
      'every container guaranteed',
      [{ limits: { cpu: '1', memory: '1Gi' } }, { limits: { cpu: '500m', memory: '256Mi' } }],
      'Guaranteed',
    ],
    [
      'other resources do not count',
      [{ limits: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi' }, requests: { 'ephemeral-storage': '500Mi' } }],
      'Guaranteed',
    ],
  ])('%s', (_name, resources, qos) => {
    expect(podQOS(withResources(...resources))).toBe(qos)
  })

  it('init containers count', () => {
    const pod = defaulted((p) => {
      p.spec.containers[0].resources = { limits: { cpu: '1', memory: '1Gi' } }
      p.spec.initContainers = [{ name: 'init', image: 'busybox' }]
    })
    expect(podQOS(pod)).toBe('Burstable')
  })
})

describe('admitPod: mirror pods', () => {
  it("gets no service account (kube's ServiceAccount plugin skips mirror pods), but priority and tolerations", () => {
    const pod = structuredClone(sparse()) as Parameters<typeof admitPod>[0]
    pod.metadata = { ...pod.metadata, annotations: { 'kubernetes.io/config.mirror': 'abc' } }
    applyPodDefaults(pod)
    expect(pod.spec.serviceAccountName).toBeUndefined()
    expect(pod.spec.serviceAccount).toBeUndefined()
    expect(pod.spec.priority).toBe(0)
    expect(pod.spec.tolerations).toEqual(DEFAULT_TOLERATIONS)
  })

  it('an ordinary pod gets the default service account', () => {
    const pod = structuredClone(sparse()) as Parameters<typeof admitPod>[0]
    applyPodDefaults(pod)
    expect(pod.spec.serviceAccountName).toBe('default')
  })
})
