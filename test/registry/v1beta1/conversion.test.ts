// The v1beta1 <-> v1 conversion tables, both directions, update semantics over a stored object, and the mapping of
// v1 error paths back to v1beta1 ones.
import { describe, expect, it } from 'vitest'
import {
  BETA_KINDS,
  betaStatus,
  toBetaList,
  toBetaObject,
  toV1Object,
  type BetaKind,
} from '../../../src/registry/v1beta1/kinds'
import { betaField, getPath, setPath, unsetPath } from '../../../src/registry/v1beta1/fields'
import { statuses } from '../../../src/registry/status'
import type { KubeObject } from '../../../src/schema/meta'
import { seedPod, seedRC, seedService } from './examples'

const kind = (path: string) => BETA_KINDS.find((k) => k.path === path) as BetaKind
const POD = kind('pods')
const RC = kind('replicationControllers')
const SVC = kind('services')

/** What the store adds to a created object. */
const stored = (o: KubeObject, extra: Record<string, unknown> = {}): KubeObject => ({
  ...o,
  metadata: {
    ...o.metadata,
    namespace: 'default',
    uid: 'u-1',
    resourceVersion: '42',
    creationTimestamp: '2014-10-01T10:00:00Z',
  },
  ...extra,
})

describe('path helpers', () => {
  it('get, set (creating arrays for numeric segments) and unset (pruning emptied objects)', () => {
    const o: Record<string, unknown> = {}
    setPath(o, 'spec.ports.0.port', 80)
    expect(o).toEqual({ spec: { ports: [{ port: 80 }] } })
    expect(getPath(o, 'spec.ports.0.port')).toBe(80)
    unsetPath(o, 'spec.ports.0.port')
    expect(o).toEqual({ spec: { ports: [{}] } })
    setPath(o, 'a.b.c', 1)
    unsetPath(o, 'a.b.c')
    expect(o).toEqual({ spec: { ports: [{}] } })
  })
})

describe('Pod table', () => {
  const v1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { name: 'web' } },
    spec: {
      containers: [
        {
          name: 'nginx',
          image: 'nginx',
          command: ['nginx', '-g', 'daemon off;'],
          ports: [{ name: 'http', containerPort: 80, hostPort: 8080, protocol: 'TCP' }],
          env: [{ name: 'FOO', value: 'bar' }],
          volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: false }],
          livenessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15 },
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      restartPolicy: 'Always',
      nodeSelector: { disk: 'ssd' },
    },
  }

  it('v1beta1 -> v1', () => {
    expect(toV1Object(POD, seedPod())).toEqual(v1Pod)
  })

  it('v1 -> v1beta1, with the observed state as currentState', () => {
    const running = stored(v1Pod as KubeObject, {
      spec: { ...v1Pod.spec, nodeName: 'node-1' },
      status: {
        phase: 'Running',
        hostIP: '10.240.0.2',
        podIP: '10.244.1.5',
        containerStatuses: [
          {
            name: 'nginx',
            ready: true,
            restartCount: 0,
            image: 'nginx',
            imageID: 'docker://sha',
            containerID: 'docker://abc',
            state: { running: { startedAt: '2014-10-01T10:00:05Z' } },
          },
        ],
      },
    })
    expect(toBetaObject(POD, running)).toEqual({
      ...seedPod(),
      namespace: 'default',
      uid: 'u-1',
      creationTimestamp: '2014-10-01T10:00:00Z',
      resourceVersion: 42,
      selfLink: '/api/v1beta1/pods/web',
      desiredState: {
        ...seedPod().desiredState,
        manifest: { ...seedPod().desiredState.manifest, uuid: 'u-1' },
        host: 'node-1',
      },
      currentState: {
        status: 'Running',
        host: 'node-1',
        hostIP: '10.240.0.2',
        podIP: '10.244.1.5',
        info: {
          nginx: {
            state: { running: { startedAt: '2014-10-01T10:00:05Z' } },
            restartCount: 0,
            ready: true,
            podIP: '10.244.1.5',
            image: 'nginx',
            imageID: 'docker://sha',
            containerID: 'docker://abc',
          },
        },
      },
    })
  })

  it.each([
    ['Pending', 'Waiting'],
    ['Running', 'Running'],
    ['Succeeded', 'Succeeded'],
    ['Failed', 'Terminated'],
    ['Unknown', 'Unknown'],
  ])('phase %s is status %s', (phase, status) => {
    expect((toBetaObject(POD, stored(v1Pod as KubeObject, { status: { phase } })).currentState as any).status).toBe(
      status,
    )
  })

  it.each([
    [{ always: {} }, 'Always'],
    [{ onFailure: {} }, 'OnFailure'],
    [{ never: {} }, 'Never'],
  ])('restartPolicy %j is %s, both ways', (beta, v1) => {
    const b = seedPod()
    b.desiredState.manifest.restartPolicy = beta as any
    const converted = toV1Object(POD, b) as any
    expect(converted.spec.restartPolicy).toBe(v1)
    expect((toBetaObject(POD, stored(converted)) as any).desiredState.manifest.restartPolicy).toEqual(beta)
  })

  it.each([
    ['PullAlways', 'Always'],
    ['PullNever', 'Never'],
    ['PullIfNotPresent', 'IfNotPresent'],
  ])('imagePullPolicy %s is %s, both ways', (beta, v1) => {
    const b = seedPod()
    b.desiredState.manifest.containers[0]!.imagePullPolicy = beta
    const converted = toV1Object(POD, b) as any
    expect(converted.spec.containers[0].imagePullPolicy).toBe(v1)
    expect((toBetaObject(POD, stored(converted)) as any).desiredState.manifest.containers[0].imagePullPolicy).toBe(beta)
  })

  it('volume sources, memory in bytes and cpu in millicores, both ways', () => {
    const b = seedPod() as any
    b.desiredState.manifest.volumes = [
      { name: 'h', source: { hostDir: { path: '/var/log' } } },
      { name: 'pd', source: { persistentDisk: { pdName: 'disk-1', fsType: 'ext4', partition: 1, readOnly: true } } },
      { name: 'git', source: { gitRepo: { repository: 'https://example.com/r.git', revision: 'abc' } } },
    ]
    b.desiredState.manifest.containers[0].memory = 134217728
    b.desiredState.manifest.containers[0].cpu = 500
    const v1 = toV1Object(POD, b) as any
    expect(v1.spec.volumes).toEqual([
      { name: 'h', hostPath: { path: '/var/log' } },
      { name: 'pd', gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4', partition: 1, readOnly: true } },
      { name: 'git', gitRepo: { repository: 'https://example.com/r.git', revision: 'abc' } },
    ])
    expect(v1.spec.containers[0].resources).toEqual({ limits: { memory: '134217728', cpu: '500m' } })
    // Quantities as kube writes them come back as plain numbers.
    v1.spec.containers[0].resources.limits = { memory: '128Mi', cpu: '0.5' }
    const back = toBetaObject(POD, stored(v1)) as any
    expect(back.desiredState.manifest.volumes).toEqual(b.desiredState.manifest.volumes)
    expect(back.desiredState.manifest.containers[0]).toMatchObject({ memory: 134217728, cpu: 500 })
  })

  it('a pod named only in its manifest takes the manifest id', () => {
    const b = seedPod() as any
    delete b.id
    expect(toV1Object(POD, b).metadata.name).toBe('web')
  })

  it('update: desiredState and labels are replaced, v1-only and server-set fields survive, currentState is ignored', () => {
    const base = stored(v1Pod as KubeObject, {
      spec: {
        ...v1Pod.spec,
        nodeName: 'node-1',
        serviceAccountName: 'default',
        tolerations: [{ key: 'k', operator: 'Exists' }],
        containers: [{ ...v1Pod.spec.containers[0], args: ['-v'], terminationMessagePath: '/dev/termination-log' }],
      },
      status: { phase: 'Running' },
    })
    base.metadata.annotations = { note: 'kept' }
    const put = seedPod() as any
    delete put.labels
    delete put.nodeSelector
    put.desiredState.manifest.containers[0].image = 'nginx:2'
    put.currentState = { status: 'Terminated', host: 'elsewhere' }
    const v1 = toV1Object(POD, put, base) as any
    expect(v1.metadata.labels).toBeUndefined()
    expect(v1.metadata.annotations).toEqual({ note: 'kept' })
    expect(v1.spec.nodeSelector).toBeUndefined()
    expect(v1.spec.nodeName).toBe('node-1')
    expect(v1.spec.tolerations).toEqual([{ key: 'k', operator: 'Exists' }])
    expect(v1.spec.containers[0]).toMatchObject({
      image: 'nginx:2',
      args: ['-v'],
      terminationMessagePath: '/dev/termination-log',
    })
    expect(v1.status).toEqual({ phase: 'Running' })
    // An omitted desiredState field is deleted.
    const noEnv = seedPod() as any
    delete noEnv.desiredState.manifest.containers[0].env
    expect((toV1Object(POD, noEnv, base) as any).spec.containers[0].env).toBeUndefined()
  })
})

describe('ReplicationController table', () => {
  const v1RC = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'web-rc', labels: { name: 'web' } },
    spec: {
      replicas: 2,
      selector: { name: 'web' },
      template: {
        metadata: { labels: { name: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      },
    },
  }

  it('v1beta1 -> v1', () => {
    expect(toV1Object(RC, seedRC())).toEqual(v1RC)
  })

  it('v1 -> v1beta1 with currentState.replicas', () => {
    const got = toBetaObject(RC, stored(v1RC as KubeObject, { status: { replicas: 2, readyReplicas: 1 } }))
    const expected = seedRC() as any
    delete expected.desiredState.podTemplate.desiredState.manifest.id
    expect(got).toEqual({
      ...expected,
      namespace: 'default',
      uid: 'u-1',
      creationTimestamp: '2014-10-01T10:00:00Z',
      resourceVersion: 42,
      selfLink: '/api/v1beta1/replicationControllers/web-rc',
      currentState: { replicas: 2 },
    })
  })

  it('replicas is always serialized, and absent means 0 (a plain int in v1beta1)', () => {
    const b = seedRC() as any
    delete b.desiredState.replicas
    expect((toV1Object(RC, b) as any).spec.replicas).toBe(0)
    const zero = stored({ ...v1RC, spec: { ...v1RC.spec, replicas: 0 } } as KubeObject)
    expect((toBetaObject(RC, zero) as any).desiredState.replicas).toBe(0)
    expect((toBetaObject(RC, zero) as any).currentState.replicas).toBe(0)
  })
})

describe('Service table', () => {
  const v1Svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', labels: { name: 'web' } },
    spec: {
      ports: [{ port: 8000, protocol: 'TCP', targetPort: 80 }],
      selector: { name: 'web' },
      sessionAffinity: 'None',
    },
  }

  it('v1beta1 -> v1', () => {
    expect(toV1Object(SVC, seedService())).toEqual(v1Svc)
  })

  it('v1 -> v1beta1: first port, portalIP, the load-balancer flag, an empty selector serialized', () => {
    const s = stored(v1Svc as KubeObject, {
      spec: {
        ...v1Svc.spec,
        clusterIP: '10.0.0.12',
        type: 'LoadBalancer',
        externalIPs: ['1.2.3.4'],
        selector: undefined,
      },
    })
    expect(toBetaObject(SVC, s)).toEqual({
      kind: 'Service',
      apiVersion: 'v1beta1',
      id: 'web',
      namespace: 'default',
      uid: 'u-1',
      creationTimestamp: '2014-10-01T10:00:00Z',
      resourceVersion: 42,
      labels: { name: 'web' },
      port: 8000,
      protocol: 'TCP',
      containerPort: 80,
      selector: {},
      createExternalLoadBalancer: true,
      portalIP: '10.0.0.12',
      publicIPs: ['1.2.3.4'],
      sessionAffinity: 'None',
      selfLink: '/api/v1beta1/services/web',
    })
  })

  it('createExternalLoadBalancer is the LoadBalancer type; off keeps NodePort, leaves LoadBalancer for ClusterIP', () => {
    const lb = { ...seedService(), createExternalLoadBalancer: true }
    expect((toV1Object(SVC, lb) as any).spec.type).toBe('LoadBalancer')
    const nodePort = stored({ ...v1Svc, spec: { ...v1Svc.spec, type: 'NodePort' } } as KubeObject)
    expect((toV1Object(SVC, seedService(), nodePort) as any).spec.type).toBe('NodePort')
    const wasLb = stored({ ...v1Svc, spec: { ...v1Svc.spec, type: 'LoadBalancer' } } as KubeObject)
    expect((toV1Object(SVC, seedService(), wasLb) as any).spec.type).toBe('ClusterIP')
  })

  it('update keeps further v1 ports, node ports and the cluster IP', () => {
    const base = stored({
      ...v1Svc,
      spec: {
        ...v1Svc.spec,
        clusterIP: '10.0.0.12',
        clusterIPs: ['10.0.0.12'],
        ports: [
          { name: 'http', port: 8000, protocol: 'TCP', targetPort: 80, nodePort: 30001 },
          { name: 'https', port: 8443, protocol: 'TCP', targetPort: 443 },
        ],
      },
    } as KubeObject)
    const v1 = toV1Object(SVC, { ...seedService(), port: 9000 }, base) as any
    expect(v1.spec.ports).toEqual([
      { name: 'http', port: 9000, protocol: 'TCP', targetPort: 80, nodePort: 30001 },
      { name: 'https', port: 8443, protocol: 'TCP', targetPort: 443 },
    ])
    expect(v1.spec.clusterIP).toBe('10.0.0.12')
    expect(v1.spec.clusterIPs).toEqual(['10.0.0.12'])
  })
})

describe('lists and errors', () => {
  it('lists carry kind, apiVersion, selfLink and an integer resourceVersion', () => {
    const list = toBetaList(POD, 'team-a', [], 7)
    expect(list).toEqual({
      kind: 'PodList',
      apiVersion: 'v1beta1',
      creationTimestamp: null,
      selfLink: '/api/v1beta1/pods?namespace=team-a',
      resourceVersion: 7,
      items: [],
    })
  })

  it.each([
    ['pods', 'spec.containers[0].image', 'desiredState.manifest.containers[0].image'],
    ['pods', 'spec.containers[0].ports[1].containerPort', 'desiredState.manifest.containers[0].ports[1].containerPort'],
    ['pods', 'spec.containers[0].resources.limits.memory', 'desiredState.manifest.containers[0].memory'],
    ['pods', 'spec.volumes[0].hostPath.path', 'desiredState.manifest.volumes[0].source.hostDir.path'],
    ['pods', 'metadata.name', 'id'],
    ['pods', 'metadata.labels', 'labels'],
    ['pods', 'spec.containers[0].args', 'desiredState.manifest.containers[0].args'],
    ['replicationControllers', 'spec.selector', 'desiredState.replicaSelector'],
    ['replicationControllers', 'spec.template.metadata.labels', 'desiredState.podTemplate.labels'],
    [
      'replicationControllers',
      'spec.template.spec.containers[0].name',
      'desiredState.podTemplate.desiredState.manifest.containers[0].name',
    ],
    ['services', 'spec.ports[0].port', 'port'],
    ['services', 'spec.clusterIP', 'portalIP'],
  ])('%s: the v1 error path %s reads %s', (k, v1, beta) => {
    expect(betaField(kind(k).rows, v1)).toBe(beta)
  })

  it('a v1 validation Status speaks v1beta1 paths', () => {
    const s = statuses.invalid('Pod', 'web', [
      { type: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' },
    ])
    const mapped = betaStatus(POD, s)
    expect(mapped.message).toBe('Pod "web" is invalid: desiredState.manifest.containers[0].image: Required value')
    expect(mapped.details?.causes?.[0]?.field).toBe('desiredState.manifest.containers[0].image')
  })
})
