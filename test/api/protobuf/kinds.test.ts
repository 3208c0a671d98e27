// Kinds kubectl does not send as protobuf (so no captured bytes): bodies built field by field from the upstream
// generated.proto numbers, written out here independently of src/api/protobuf/messages.ts, plus malformed input.
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'
import { MESSAGES, messageFields } from '../../../src/api/protobuf/messages'

// --- a minimal protobuf writer, Go style: negative ints as 10-byte two's complement ---
type Part = number[]
const utf8 = new TextEncoder()
function varint(v: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(v))
  const out: number[] = []
  do {
    let b = Number(x & 0x7fn)
    x >>= 7n
    if (x) b |= 0x80
    out.push(b)
  } while (x)
  return out
}
const tag = (n: number, wire: number) => varint(n * 8 + wire)
const len = (n: number, b: number[]): Part => [...tag(n, 2), ...varint(b.length), ...b]
/** varint field (int32, int64, bool) */
const I = (n: number, v: number | boolean): Part => [...tag(n, 0), ...varint(typeof v === 'boolean' ? Number(v) : v)]
/** string field */
const S = (n: number, s: string): Part => len(n, [...utf8.encode(s)])
/** embedded message field */
const M = (n: number, ...parts: Part[]): Part => len(n, parts.flat())
/** map<string, string> entry */
const KV = (n: number, k: string, v: string): Part => M(n, S(1, k), S(2, v))
/** metav1.Time */
const T = (n: number, seconds: number, nanos?: number): Part =>
  M(n, I(1, seconds), ...(nanos === undefined ? [] : [I(2, nanos)]))
/** intstr.IntOrString */
const IOS = (n: number, v: number | string): Part =>
  typeof v === 'number' ? M(n, I(1, 0), I(2, v), S(3, '')) : M(n, I(1, 1), I(2, 0), S(3, v))
/** resource.Quantity */
const Q = (n: number, s: string): Part => M(n, S(1, s))

/** The k8s\0 + runtime.Unknown envelope around an object message. */
function envelope(apiVersion: string, kind: string, body: Part[], extra: Part[] = [S(3, ''), S(4, '')]): Uint8Array {
  return Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...M(1, S(1, apiVersion), S(2, kind)),
    ...M(2, ...body),
    ...extra.flat(),
  ])
}
const decode = (apiVersion: string, kind: string, ...body: Part[]) =>
  decodeKubeProtobuf(envelope(apiVersion, kind, body)).object

/** ObjectMeta as Go writes an almost empty one: every non-pointer scalar present and zero. */
const meta = (name: string, ...more: Part[]): Part =>
  M(1, S(1, name), S(2, ''), S(3, ''), S(4, ''), S(5, ''), S(6, ''), I(7, 0), M(8), ...more)

describe('ObjectMeta', () => {
  it('decodes every field, drops Go zero values, keeps pointer zeros', () => {
    const fieldsV1 = '{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}'
    const o = decode(
      'v1',
      'ConfigMap',
      M(
        1,
        S(1, 'c'),
        S(2, 'gen-'),
        S(3, 'ns'),
        S(4, ''),
        S(5, 'uid-1'),
        S(6, '42'),
        I(7, 3),
        T(8, 1700000000),
        T(9, 1700000100, 999999999),
        I(10, 0),
        KV(11, 'app', 'web'),
        KV(11, '__proto__', 'x'),
        KV(12, 'note', 'a "quoted" value'),
        M(13, S(5, 'v1'), S(1, 'ReplicationController'), S(3, 'r'), S(4, 'u-r'), I(6, true), I(7, false)),
        S(14, 'example.com/a'),
        S(14, 'example.com/b'),
        S(15, 'old-clusterName'), // removed from the API: skipped
        M(
          17,
          S(1, 'kubectl'),
          S(2, 'Update'),
          S(3, 'v1'),
          T(4, 1700000000),
          S(6, 'FieldsV1'),
          M(7, len(1, [...utf8.encode(fieldsV1)])),
          S(8, ''),
        ),
        S(99, 'from the future'), // unknown: skipped
      ),
    )
    const labels = Object.assign(Object.create(null) as object, { app: 'web' })
    Object.defineProperty(labels, '__proto__', { value: 'x', enumerable: true })
    expect(o).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        generateName: 'gen-',
        namespace: 'ns',
        uid: 'uid-1',
        resourceVersion: '42',
        generation: 3,
        creationTimestamp: '2023-11-14T22:13:20Z',
        deletionTimestamp: '2023-11-14T22:15:00Z',
        deletionGracePeriodSeconds: 0,
        labels: JSON.parse('{"app":"web","__proto__":"x"}'),
        annotations: { note: 'a "quoted" value' },
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ReplicationController',
            name: 'r',
            uid: 'u-r',
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ['example.com/a', 'example.com/b'],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2023-11-14T22:13:20Z',
            fieldsType: 'FieldsV1',
            fieldsV1: JSON.parse(fieldsV1),
          },
        ],
      },
    })
    // The "__proto__" label is an own data property, not the object's prototype.
    const got = (o.metadata as { labels: Record<string, unknown> }).labels
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype)
    expect(Object.keys(got)).toEqual(['app', '__proto__'])
  })

  it('an empty ObjectMeta is {} and an empty creationTimestamp (Go zero time) is left out', () => {
    expect(decode('v1', 'Namespace', meta(''), M(2), M(3, S(1, '')))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {},
      spec: {},
      status: {},
    })
  })
})

describe('times', () => {
  const at = (...t: Part[]) =>
    (decode('v1', 'Namespace', M(1, ...t)).metadata as Record<string, unknown>).creationTimestamp
  it('formats RFC 3339 to the second, truncating nanos', () => {
    expect(at(T(8, 0))).toBe('1970-01-01T00:00:00Z')
    expect(at(T(8, 1700000000, 999999999))).toBe('2023-11-14T22:13:20Z')
    expect(at(T(8, -1, 500000000))).toBe('1969-12-31T23:59:59Z')
    expect(at(T(8, 253402300799))).toBe('9999-12-31T23:59:59Z')
  })
  it('treats Go zero time as absent and refuses times Go could not print as RFC 3339', () => {
    expect(at(T(8, -62135596800))).toBeUndefined()
    expect(() => at(T(8, 253402300800))).toThrow(/outside years 1-9999/)
  })
})

describe('kinds without captured bytes', () => {
  it('Endpoints', () => {
    expect(
      decode(
        'v1',
        'Endpoints',
        meta('svc'),
        M(
          2,
          M(
            1,
            S(1, '10.0.0.1'),
            S(3, 'h1'),
            S(4, 'node-a'),
            M(2, S(1, 'Pod'), S(2, 'default'), S(3, 'p1'), S(4, 'u1'), S(5, ''), S(6, ''), S(7, '')),
          ),
          M(2, S(1, '10.0.0.2'), S(3, '')),
          M(3, S(1, 'http'), I(2, 80), S(3, 'TCP'), S(4, 'kubernetes.io/h2c')),
          M(3, S(1, ''), I(2, 0), S(3, 'UDP')),
        ),
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'svc' },
      subsets: [
        {
          addresses: [
            {
              ip: '10.0.0.1',
              hostname: 'h1',
              nodeName: 'node-a',
              targetRef: { kind: 'Pod', namespace: 'default', name: 'p1', uid: 'u1' },
            },
          ],
          notReadyAddresses: [{ ip: '10.0.0.2' }],
          ports: [
            { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'kubernetes.io/h2c' },
            { port: 0, protocol: 'UDP' },
          ],
        },
      ],
    })
  })

  it('Binding', () => {
    expect(decode('v1', 'Binding', meta('p'), M(2, S(1, 'Node'), S(2, ''), S(3, 'n1'), S(4, ''), S(5, 'v1')))).toEqual({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'p' },
      target: { kind: 'Node', name: 'n1', apiVersion: 'v1' },
    })
  })

  it('Event, with MicroTime to the microsecond', () => {
    expect(
      decode(
        'v1',
        'Event',
        meta('p.1'),
        M(2, S(1, 'Pod'), S(2, 'default'), S(3, 'p'), S(4, 'u'), S(5, 'v1'), S(6, '7'), S(7, 'spec.containers{c}')),
        S(3, 'Pulled'),
        S(4, 'pulled image'),
        M(5, S(1, 'kubelet'), S(2, 'n1')),
        T(6, 1700000000),
        T(7, 1700000060),
        I(8, 2),
        S(9, 'Normal'),
        M(10, I(1, 1700000000), I(2, 123456789)),
        M(11, I(1, 3), M(2, I(1, 1700000061), I(2, 5000))),
        S(12, 'Pulling'),
        M(13, S(1, 'Node'), S(3, 'n1')),
        S(14, 'kubelet'),
        S(15, ''),
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'p.1' },
      involvedObject: {
        kind: 'Pod',
        namespace: 'default',
        name: 'p',
        uid: 'u',
        apiVersion: 'v1',
        resourceVersion: '7',
        fieldPath: 'spec.containers{c}',
      },
      reason: 'Pulled',
      message: 'pulled image',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2023-11-14T22:13:20Z',
      lastTimestamp: '2023-11-14T22:14:20Z',
      count: 2,
      type: 'Normal',
      eventTime: '2023-11-14T22:13:20.123456Z',
      series: { count: 3, lastObservedTime: '2023-11-14T22:14:21.000005Z' },
      action: 'Pulling',
      related: { kind: 'Node', name: 'n1' },
      // Go has no omitempty on these two, so an empty one is "" in Go's JSON too.
      reportingComponent: 'kubelet',
      reportingInstance: '',
    })
  })

  it('Scale (autoscaling/v1): spec.replicas is omitempty, status.replicas is not', () => {
    expect(decode('autoscaling/v1', 'Scale', meta('r'), M(2, I(1, 0)), M(3, I(1, 0), S(2, 'app=r')))).toEqual({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'r' },
      spec: {},
      status: { replicas: 0, selector: 'app=r' },
    })
  })

  it('Eviction (policy/v1) and DeleteOptions keep explicit zeros of pointer fields', () => {
    expect(
      decode(
        'policy/v1',
        'Eviction',
        meta('p'),
        M(2, I(1, 0), M(2, S(1, 'u-p'), S(2, '9')), S(4, 'Foreground'), S(5, 'All')),
      ),
    ).toEqual({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p' },
      deleteOptions: {
        gracePeriodSeconds: 0,
        preconditions: { uid: 'u-p', resourceVersion: '9' },
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
      },
    })
    expect(decode('v1', 'DeleteOptions', I(3, false), I(6, true))).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      orphanDependents: false,
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    })
    // Clients send DeleteOptions in their own group's version; any is accepted.
    expect(decode('meta.k8s.io/v1', 'DeleteOptions', S(4, 'Orphan')).propagationPolicy).toBe('Orphan')
  })

  it('ReplicationController: replicas 0 is kept (a pointer), minReadySeconds 0 is not', () => {
    expect(
      decode(
        'v1',
        'ReplicationController',
        meta('r'),
        M(
          2,
          I(1, 0),
          KV(2, 'app', 'r'),
          M(3, M(1, KV(11, 'app', 'r'), M(8)), M(2, M(2, S(1, 'c'), S(2, 'nginx'), M(8)), S(3, 'Always'))),
          I(4, 0),
        ),
        M(
          3,
          I(1, 0),
          I(2, 0),
          I(3, 4),
          I(4, 0),
          I(5, 0),
          M(6, S(1, 'ReplicaFailure'), S(2, 'True'), T(3, 1700000000), S(4, 'FailedCreate'), S(5, 'quota')),
        ),
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r' },
      spec: {
        replicas: 0,
        selector: { app: 'r' },
        template: {
          metadata: { labels: { app: 'r' } },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }], restartPolicy: 'Always' },
        },
      },
      status: {
        replicas: 0,
        observedGeneration: 4,
        conditions: [
          {
            type: 'ReplicaFailure',
            status: 'True',
            lastTransitionTime: '2023-11-14T22:13:20Z',
            reason: 'FailedCreate',
            message: 'quota',
          },
        ],
      },
    })
  })

  it('Service: every spec field and the status with metav1.Conditions', () => {
    const o = decode(
      'v1',
      'Service',
      meta('s'),
      M(
        2,
        M(1, S(1, 'http'), S(2, 'TCP'), S(6, 'http'), I(3, 80), IOS(4, 'web'), I(5, 30080)),
        KV(2, 'app', 's'),
        S(3, '10.96.0.10'),
        S(4, 'LoadBalancer'),
        S(5, '1.2.3.4'),
        S(7, 'ClientIP'),
        S(8, '5.6.7.8'),
        S(9, '10.0.0.0/8'),
        S(10, ''),
        S(11, 'Local'),
        I(12, 31000),
        I(13, true),
        M(14, M(1, I(1, 10800))),
        S(17, 'SingleStack'),
        S(18, '10.96.0.10'),
        S(19, 'IPv4'),
        I(20, false),
        S(21, 'example.com/lb'),
        S(22, 'Cluster'),
        S(23, 'PreferClose'),
      ),
      M(
        3,
        M(1, M(1, S(1, '9.9.9.9'), S(2, ''), S(3, 'VIP'), M(4, I(1, 80), S(2, 'TCP')))),
        M(2, S(1, 'Ready'), S(2, 'True'), I(3, 2), T(4, 1700000000), S(5, 'Provisioned'), S(6, '')),
      ),
    )
    expect(o).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: {
        ports: [{ name: 'http', protocol: 'TCP', appProtocol: 'http', port: 80, targetPort: 'web', nodePort: 30080 }],
        selector: { app: 's' },
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        type: 'LoadBalancer',
        externalIPs: ['1.2.3.4'],
        sessionAffinity: 'ClientIP',
        loadBalancerIP: '5.6.7.8',
        loadBalancerSourceRanges: ['10.0.0.0/8'],
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 31000,
        publishNotReadyAddresses: true,
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'example.com/lb',
        internalTrafficPolicy: 'Cluster',
        trafficDistribution: 'PreferClose',
      },
      status: {
        loadBalancer: { ingress: [{ ip: '9.9.9.9', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            observedGeneration: 2,
            lastTransitionTime: '2023-11-14T22:13:20Z',
            reason: 'Provisioned',
            message: '',
          },
        ],
      },
    })
  })

  it('IntOrString: an int, a string, and the Go zero value 0 (Go writes the struct even when unset)', () => {
    const port = (p: Part) =>
      (decode('v1', 'Service', M(2, M(1, I(3, 80), p))).spec as { ports: { targetPort?: unknown }[] }).ports[0]!
        .targetPort
    expect(port(IOS(4, 8080))).toBe(8080)
    expect(port(IOS(4, 'http'))).toBe('http')
    expect(port(M(4))).toBe(0)
  })

  it('Namespace status conditions and spec finalizers', () => {
    expect(
      decode(
        'v1',
        'Namespace',
        meta('x'),
        M(2, S(1, 'kubernetes')),
        M(
          3,
          S(1, 'Terminating'),
          M(2, S(1, 'NamespaceDeletionContentFailure'), S(2, 'False'), M(4), S(5, 'ContentDeleted'), S(6, '')),
        ),
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'x' },
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted' }],
      },
    })
  })

  it('Pod status: value fields without omitempty (ready, restartCount, image...) stay even when zero', () => {
    const o = decode(
      'v1',
      'Pod',
      meta('p'),
      M(2),
      M(
        3,
        S(1, 'Pending'),
        M(2, S(1, 'PodScheduled'), S(2, 'True'), M(3), T(4, 1700000000), S(5, ''), S(6, '')),
        S(3, ''),
        S(4, ''),
        S(5, '192.168.0.1'),
        S(6, '10.0.0.5'),
        T(7, 1700000000),
        S(9, 'BestEffort'),
        S(11, ''),
        M(
          8,
          S(1, 'c'),
          M(2, M(1, S(1, 'ContainerCreating'), S(2, ''))),
          M(3),
          I(4, false),
          I(5, 0),
          S(6, 'nginx'),
          S(7, ''),
          S(8, ''),
        ),
        M(
          10,
          S(1, 'init'),
          M(
            2,
            M(
              3,
              I(1, 0),
              I(2, 0),
              S(3, 'Completed'),
              S(4, ''),
              T(5, 1700000000),
              T(6, 1700000001),
              S(7, 'containerd://1'),
            ),
          ),
          I(4, true),
          I(5, 0),
          S(6, 'busybox'),
          S(7, 'sha256:x'),
          I(9, true),
        ),
        M(12, S(1, '10.0.0.5')),
        M(16, S(1, '192.168.0.1')),
      ),
    )
    expect(o.status).toEqual({
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2023-11-14T22:13:20Z' }],
      hostIP: '192.168.0.1',
      hostIPs: [{ ip: '192.168.0.1' }],
      podIP: '10.0.0.5',
      podIPs: [{ ip: '10.0.0.5' }],
      startTime: '2023-11-14T22:13:20Z',
      qosClass: 'BestEffort',
      containerStatuses: [
        {
          name: 'c',
          state: { waiting: { reason: 'ContainerCreating' } },
          lastState: {},
          ready: false,
          restartCount: 0,
          image: 'nginx',
          imageID: '',
        },
      ],
      initContainerStatuses: [
        {
          name: 'init',
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: '2023-11-14T22:13:20Z',
              finishedAt: '2023-11-14T22:13:21Z',
              containerID: 'containerd://1',
            },
          },
          ready: true,
          restartCount: 0,
          image: 'busybox',
          imageID: 'sha256:x',
          started: true,
        },
      ],
    })
  })

  it('ConfigMap binaryData and Secret data are base64 in JSON', () => {
    const bin = M(3, S(1, 'blob'), len(2, [0x00, 0xff, 0x10]))
    expect(decode('v1', 'ConfigMap', meta('c'), KV(2, 'a', 'b'), bin)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: 'b' },
      binaryData: { blob: 'AP8Q' },
    })
    expect(
      decode(
        'v1',
        'Secret',
        meta('s'),
        M(2, S(1, 'k'), len(2, [...utf8.encode('hunter2')])),
        S(3, 'Opaque'),
        I(5, false),
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { k: 'aHVudGVyMg==' },
      type: 'Opaque',
      immutable: false,
    })
  })

  it('resource quantities in maps and as single values', () => {
    const o = decode(
      'v1',
      'Pod',
      M(
        2,
        M(
          2,
          S(1, 'c'),
          M(8, M(1, S(1, 'cpu'), Q(2, '500m')), M(2, S(1, 'memory'), Q(2, '1Gi')), M(2, S(1, 'cpu'), M(2))),
        ),
        M(1, S(1, 'v'), M(2, M(2, S(1, 'Memory'), Q(2, '64Mi')))),
      ),
    )
    const spec = o.spec as { containers: { resources: unknown }[]; volumes: unknown[] }
    expect(spec.containers[0]!.resources).toEqual({ limits: { cpu: '500m' }, requests: { memory: '1Gi', cpu: '0' } })
    expect(spec.volumes).toEqual([{ name: 'v', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } }])
  })

  it('repeated numbers decode packed or unpacked', () => {
    const groups = (...p: Part[]) =>
      (decode('v1', 'Pod', M(2, M(14, ...p))).spec as { securityContext: { supplementalGroups: number[] } })
        .securityContext.supplementalGroups
    expect(groups(I(4, 1), I(4, 2))).toEqual([1, 2])
    expect(groups(len(4, [...varint(1), ...varint(300), ...varint(-1)]))).toEqual([1, 300, -1])
  })

  it('inlined structs: volume sources, probe handlers, key selectors, ephemeral containers', () => {
    const o = decode(
      'v1',
      'Pod',
      M(
        2,
        M(1, S(1, 'cfg'), M(2, M(19, M(1, S(1, 'my-config')), I(4, true)))),
        M(
          2,
          S(1, 'c'),
          M(10, M(1, M(2, S(1, '/'), IOS(2, 8080))), I(3, 0), I(4, 5)),
          M(7, S(1, 'K'), S(2, ''), M(3, M(3, M(1, S(1, 'my-config')), S(2, 'k')))),
        ),
        M(34, M(1, S(1, 'dbg'), S(2, 'busybox'), I(16, true)), S(2, 'c')),
      ),
    )
    expect(o.spec).toEqual({
      volumes: [{ name: 'cfg', configMap: { name: 'my-config', optional: true } }],
      containers: [
        {
          name: 'c',
          livenessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 5 },
          env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'my-config', key: 'k' } } }],
        },
      ],
      ephemeralContainers: [{ name: 'dbg', image: 'busybox', stdin: true, targetContainerName: 'c' }],
    })
  })
})

describe('apps/v1', () => {
  it('Deployment as kubectl create deployment sends it: pointer zeros kept, value zeros dropped', () => {
    const labels = KV(1, 'app', 'web')
    const template = M(3, M(1, S(1, ''), M(11, S(1, 'app'), S(2, 'web'))), M(2, M(2, S(1, 'c'), S(2, 'nginx'))))
    const spec = M(
      2,
      I(1, 0),
      M(2, labels),
      template,
      M(4, S(1, 'RollingUpdate'), M(2, IOS(1, '25%'), IOS(2, 1))),
      I(5, 0),
      I(6, 10),
      I(7, false),
      I(9, 600),
    )
    expect(decode('apps/v1', 'Deployment', meta('web'), spec, M(3))).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    })
  })

  it('ReplicaSet with its status', () => {
    const spec = M(2, I(1, 2), I(4, 0), M(2, KV(1, 'app', 'web')))
    const status = M(
      3,
      I(1, 0),
      I(2, 0),
      I(3, 1),
      M(6, S(1, 'ReplicaFailure'), S(2, 'True'), T(3, 1700000000), S(4, 'FailedCreate')),
    )
    expect(decode('apps/v1', 'ReplicaSet', meta('rs'), spec, status)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
      status: {
        replicas: 0,
        observedGeneration: 1,
        conditions: [
          {
            type: 'ReplicaFailure',
            status: 'True',
            lastTransitionTime: '2023-11-14T22:13:20Z',
            reason: 'FailedCreate',
          },
        ],
      },
    })
  })
})

describe('malformed input and unsupported bodies', () => {
  const ns = envelope('v1', 'Namespace', [meta('x')])

  it('needs the k8s\\0 magic', () => {
    expect(() => decodeKubeProtobuf(new Uint8Array(0))).toThrow(/magic/)
    expect(() => decodeKubeProtobuf(utf8.encode('{"kind":"Namespace"}'))).toThrow(/magic/)
  })

  it('names kinds it cannot decode', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Node', [meta('n')]))).toThrow(
      'protobuf: cannot decode kind Node of apiVersion v1',
    )
    expect(() => decodeKubeProtobuf(envelope('storage.k8s.io/v1', 'StorageClass', [meta('d')]))).toThrow(
      /cannot decode kind StorageClass of apiVersion storage.k8s.io\/v1/,
    )
    expect(() => decodeKubeProtobuf(envelope('v2', 'Pod', []))).toThrow(/cannot decode kind Pod of apiVersion v2/)
    expect(() => decodeKubeProtobuf(envelope('v1', '', []))).toThrow(/no apiVersion or kind/)
  })

  it('refuses compressed or non-protobuf inner content', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [meta('x')], [S(3, 'gzip')]))).toThrow(
      /content encoding "gzip"/,
    )
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [meta('x')], [S(4, 'application/json')]))).toThrow(
      /inner content type "application\/json"/,
    )
    expect(
      decodeKubeProtobuf(envelope('v1', 'Namespace', [meta('x')], [S(4, 'application/vnd.kubernetes.protobuf')])).object
        .metadata,
    ).toEqual({ name: 'x' })
  })

  it('every truncation of a valid body fails cleanly or decodes a prefix; none escapes as a non-Error', () => {
    for (let n = 0; n < ns.length; n++) {
      try {
        decodeKubeProtobuf(ns.subarray(0, n))
      } catch (e) {
        expect(e).toBeInstanceOf(Error)
        expect((e as Error).message).toMatch(/^protobuf: /)
      }
    }
    // Cut inside the object message: the envelope's raw field claims more bytes than remain.
    expect(() => decodeKubeProtobuf(ns.subarray(0, ns.length - 6))).toThrow(/exceeds/)
  })

  it('reports the JSON path of a field with the wrong wire type', () => {
    const bad = envelope('v1', 'Pod', [M(2, M(2, S(1, 'c')), M(2, S(1, 'd'), I(2, 7)))])
    expect(() => decodeKubeProtobuf(bad)).toThrow(
      'protobuf: v1 Pod at spec.containers[1].image: string: wire type 0, expected 2',
    )
  })

  it('refuses invalid UTF-8 in strings', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [M(1, len(1, [0xc3, 0x28]))]))).toThrow(
      /metadata\.name: string is not valid UTF-8/,
    )
  })

  it('refuses groups, out-of-range int64 and invalid FieldsV1', () => {
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [M(1, tag(99, 3))]))).toThrow(/unsupported wire type 3/)
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [M(1, I(7, 2 ** 60))]))).toThrow(
      /metadata\.generation: .*safe integer/,
    )
    expect(() => decodeKubeProtobuf(envelope('v1', 'Namespace', [M(1, M(17, M(7, S(1, '{nope'))))]))).toThrow(
      /managedFields\[0\]\.fieldsV1: fieldsV1 is not JSON/,
    )
  })

  it('random bytes after the magic never crash with anything but a plain Error', () => {
    let seed = 12345
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 500; i++) {
      const body = Array.from({ length: 1 + Math.floor(rand() * 64) }, () => Math.floor(rand() * 256))
      const input =
        rand() < 0.5
          ? Uint8Array.from([0x6b, 0x38, 0x73, 0, ...body])
          : Uint8Array.from([...ns.subarray(0, 20), ...body])
      try {
        decodeKubeProtobuf(input)
      } catch (e) {
        expect(e).toBeInstanceOf(Error)
      }
    }
  })
})

describe('descriptor table', () => {
  it('every message parses, names only known types, and has unique JSON names', () => {
    for (const name of Object.keys(MESSAGES)) {
      const fields = [...messageFields(name).values()].filter((f) => !f.inline).map((f) => f.json)
      expect(new Set(fields).size, name).toBe(fields.length)
    }
  })
})
