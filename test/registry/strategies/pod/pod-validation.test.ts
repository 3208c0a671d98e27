// Pod create validation: one row per rule, each asserting every error (field path and kube's exact message) that a
// sparse `kubectl run` pod gets once the row's change is applied and the pod is defaulted as the store does.
import { describe, expect, it } from 'vitest'
import { validatePod } from '../../../../src/registry/strategies/pod/pod-validation'
import {
  IP,
  LABEL,
  LABEL_VALUE,
  QUALIFIED_NAME_PART,
  QUALIFIED_TOO_MANY_SLASHES,
  SUBDOMAIN,
  defaulted,
  rendered,
  type Body,
} from './pod-fixtures'

type Row = [name: string, mutate: (pod: Body) => void, expected: string[]]

const c0 = (pod: Body) => pod.spec.containers[0]
const emptyDirVolume = (pod: Body, name = 'data') =>
  (pod.spec.volumes = [...(pod.spec.volumes ?? []), { name, emptyDir: {} }])

function table(rows: Row[]) {
  it.each(rows)('%s', (_name, mutate, expected) => {
    expect(rendered(validatePod(defaulted(mutate)))).toEqual(expected)
  })
}

describe('validatePod: the sparse kubectl run pod', () => {
  it('is valid once defaulted', () => {
    expect(validatePod(defaulted())).toEqual([])
  })
})

describe('validatePod: containers', () => {
  table([
    ['containers must not be empty', (p) => (p.spec.containers = []), ['spec.containers: Required value']],
    ['containers are required', (p) => delete p.spec.containers, ['spec.containers: Required value']],
    ['a container needs a name', (p) => (c0(p).name = ''), ['spec.containers[0].name: Required value']],
    [
      'container names are DNS labels',
      (p) => (c0(p).name = 'Nginx'),
      [`spec.containers[0].name: Invalid value: "Nginx": ${LABEL}`],
    ],
    [
      'container names have no dots',
      (p) => (c0(p).name = 'a.b'),
      ['spec.containers[0].name: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'container names are unique',
      (p) => p.spec.containers.push({ name: 'nginx', image: 'busybox' }),
      ['spec.containers[1].name: Duplicate value: "nginx"'],
    ],
    [
      'init container names must not repeat regular ones',
      (p) => (p.spec.initContainers = [{ name: 'nginx', image: 'busybox' }]),
      ['spec.initContainers[0].name: Duplicate value: "nginx"'],
    ],
    ['image is required', (p) => delete c0(p).image, ['spec.containers[0].image: Required value']],
    [
      'image may not be padded',
      (p) => (c0(p).image = ' nginx'),
      ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
    ],
    [
      'imagePullPolicy is an enum',
      (p) => (c0(p).imagePullPolicy = 'Sometimes'),
      [
        'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
    [
      'terminationMessagePolicy is an enum',
      (p) => (c0(p).terminationMessagePolicy = 'Stdout'),
      [
        'spec.containers[0].terminationMessagePolicy: Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"',
      ],
    ],
    [
      'regular containers may not set restartPolicy',
      (p) => (c0(p).restartPolicy = 'Always'),
      ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'],
    ],
  ])
})

describe('validatePod: ports', () => {
  table([
    [
      'containerPort is required',
      (p) => (c0(p).ports = [{ containerPort: 0 }]),
      ['spec.containers[0].ports[0].containerPort: Required value'],
    ],
    [
      'containerPort is 1-65535',
      (p) => (c0(p).ports = [{ containerPort: 70000 }]),
      ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    [
      'hostPort is 1-65535 when set',
      (p) => (c0(p).ports = [{ containerPort: 80, hostPort: -1 }]),
      ['spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive'],
    ],
    [
      'protocol is an enum',
      (p) => (c0(p).ports = [{ containerPort: 80, protocol: 'HTTP' }]),
      ['spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'],
    ],
    [
      'port names use the IANA_SVC_NAME charset',
      (p) => (c0(p).ports = [{ containerPort: 80, name: 'http_port' }]),
      [
        'spec.containers[0].ports[0].name: Invalid value: "http_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    ],
    [
      'port names report every broken IANA_SVC_NAME rule',
      (p) => (c0(p).ports = [{ containerPort: 80, name: '--0123456789abc' + 'd' }]),
      [
        'spec.containers[0].ports[0].name: Invalid value: "--0123456789abcd": must be no more than 15 characters',
        'spec.containers[0].ports[0].name: Invalid value: "--0123456789abcd": must not contain consecutive hyphens',
        'spec.containers[0].ports[0].name: Invalid value: "--0123456789abcd": must not begin or end with a hyphen',
      ],
    ],
    [
      'port names need a letter',
      (p) => (c0(p).ports = [{ containerPort: 80, name: '8080' }]),
      ['spec.containers[0].ports[0].name: Invalid value: "8080": must contain at least one letter (a-z)'],
    ],
    [
      'port names are unique within a container',
      (p) =>
        (c0(p).ports = [
          { containerPort: 80, name: 'http' },
          { containerPort: 81, name: 'http' },
        ]),
      ['spec.containers[0].ports[1].name: Duplicate value: "http"'],
    ],
    [
      'protocol/hostIP/hostPort is unique across containers',
      (p) => {
        c0(p).ports = [{ containerPort: 80, hostPort: 8080 }]
        p.spec.containers.push({ name: 'sidecar', image: 'busybox', ports: [{ containerPort: 81, hostPort: 8080 }] })
      },
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
    ],
    [
      'a repeated containerPort without hostPort is allowed (kube only warns)',
      (p) => (c0(p).ports = [{ containerPort: 80 }, { containerPort: 80 }]),
      [],
    ],
    [
      'the same hostPort on another hostIP is allowed',
      (p) =>
        (c0(p).ports = [
          { containerPort: 80, hostPort: 8080, hostIP: '10.0.0.1' },
          { containerPort: 81, hostPort: 8080, hostIP: '10.0.0.2' },
        ]),
      [],
    ],
    [
      'with hostNetwork, hostPort must equal containerPort',
      (p) => {
        p.spec.hostNetwork = true
        c0(p).ports = [{ containerPort: 80, hostPort: 8080 }]
      },
      [
        'spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true',
      ],
    ],
  ])
})

describe('validatePod: env', () => {
  const env = (p: Body, ...vars: unknown[]) => (c0(p).env = vars)
  table([
    [
      'env names are required',
      (p) => env(p, { name: '', value: 'x' }),
      ['spec.containers[0].env[0].name: Required value'],
    ],
    [
      'env names are printable ASCII without "="',
      (p) => env(p, { name: 'A=B' }),
      [
        `spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
    ],
    [
      'env names may not hold non-ASCII characters',
      (p) => env(p, { name: 'CAFÉ' }),
      [
        `spec.containers[0].env[0].name: Invalid value: "CAFÉ": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
    ],
    ['relaxed env names (1.32+) accept digits first, dots and spaces', (p) => env(p, { name: '1 weird.name-x' }), []],
    [
      'valueFrom needs a source',
      (p) => env(p, { name: 'A', valueFrom: {} }),
      [
        'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ],
    ],
    [
      'valueFrom takes exactly one source',
      (p) =>
        env(p, {
          name: 'A',
          valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } },
        }),
      ['spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time'],
    ],
    [
      'valueFrom excludes value',
      (p) => env(p, { name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }),
      ['spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty'],
    ],
    [
      'fieldRef paths env cannot read',
      (p) => env(p, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.restartPolicy' } } }),
      [
        'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.restartPolicy": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      ],
    ],
    [
      'fieldRef paths the downward API does not know',
      (p) => env(p, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.foo' } } }),
      [
        'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo',
      ],
    ],
    [
      'fieldRef may subscript labels',
      (p) => env(p, { name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }),
      [],
    ],
    [
      'resourceFieldRef resources',
      (p) => env(p, { name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }),
      [
        'spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      ],
    ],
    [
      'configMapKeyRef keys are config keys',
      (p) => env(p, { name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'a b' } } }),
      [
        `spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      ],
    ],
    [
      'envFrom needs a source (reported on the list)',
      (p) => (c0(p).envFrom = [{ prefix: 'P_' }]),
      ['spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`'],
    ],
  ])
})

describe('validatePod: resources', () => {
  const resources = (p: Body, r: unknown) => (c0(p).resources = r)
  table([
    [
      'requests may not exceed limits',
      (p) => resources(p, { limits: { cpu: '1' }, requests: { cpu: '2' } }),
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
    ],
    [
      'requests compare exactly with limits',
      (p) => resources(p, { limits: { memory: '1Gi' }, requests: { memory: '1073741825' } }),
      [
        'spec.containers[0].resources.requests: Invalid value: "1073741825": must be less than or equal to memory limit of 1Gi',
      ],
    ],
    [
      'equal amounts in different units are fine',
      (p) => resources(p, { limits: { cpu: '1' }, requests: { cpu: '1000m' } }),
      [],
    ],
    [
      'resource names must be known',
      (p) => resources(p, { requests: { gpu: '1' } }),
      [
        'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
        'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      ],
    ],
    [
      'quantities may not be negative',
      (p) => resources(p, { requests: { memory: '-1Gi' } }),
      ['spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0'],
    ],
    [
      'extended resources need a limit',
      (p) => resources(p, { requests: { 'example.com/gpu': '1' } }),
      ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'],
    ],
    [
      'extended resources are whole numbers',
      (p) => resources(p, { limits: { 'example.com/gpu': '500m' } }),
      [
        'spec.containers[0].resources.limits[example.com/gpu]: Invalid value: 500m: must be an integer',
        'spec.containers[0].resources.requests[example.com/gpu]: Invalid value: 500m: must be an integer',
      ],
    ],
    [
      'hugepages need cpu or memory',
      (p) => resources(p, { limits: { 'hugepages-2Mi': '4Mi' } }),
      ['spec.containers[0].resources: Forbidden: HugePages require cpu or memory'],
    ],
    [
      'container claims must name pod resource claims',
      (p) => resources(p, { claims: [{ name: 'gpu' }] }),
      [
        'spec.containers[0].resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty',
      ],
    ],
    [
      'overhead is checked like container limits',
      (p) => (p.spec.overhead = { gpu: '1' }),
      [
        'spec.overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
        'spec.overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      ],
    ],
  ])
})

describe('validatePod: volumes and mounts', () => {
  table([
    [
      'mounts name existing volumes',
      (p) => (c0(p).volumeMounts = [{ name: 'data', mountPath: '/data' }]),
      ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
    ],
    [
      'mountPath is required',
      (p) => {
        emptyDirVolume(p)
        c0(p).volumeMounts = [{ name: 'data', mountPath: '' }]
      },
      ['spec.containers[0].volumeMounts[0].mountPath: Required value'],
    ],
    [
      'mountPath is unique within a container',
      (p) => {
        emptyDirVolume(p)
        emptyDirVolume(p, 'cache')
        c0(p).volumeMounts = [
          { name: 'data', mountPath: '/data' },
          { name: 'cache', mountPath: '/data' },
        ]
      },
      ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique'],
    ],
    [
      'subPath is relative (reported on the list path, as kube does)',
      (p) => {
        emptyDirVolume(p)
        c0(p).volumeMounts = [{ name: 'data', mountPath: '/data', subPath: '/abs' }]
      },
      ['spec.containers[0].volumeMounts.subPath: Invalid value: "/abs": must be a relative path'],
    ],
    [
      'Bidirectional propagation needs a privileged container',
      (p) => {
        emptyDirVolume(p)
        c0(p).volumeMounts = [{ name: 'data', mountPath: '/data', mountPropagation: 'Bidirectional' }]
      },
      [
        'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
      ],
    ],
    [
      'block devices come from claims only',
      (p) => {
        emptyDirVolume(p)
        c0(p).volumeDevices = [{ name: 'data', devicePath: '/dev/xvda' }]
      },
      [
        'spec.containers[0].volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      ],
    ],
    [
      'volume names are DNS labels',
      (p) => (p.spec.volumes = [{ name: 'Data', emptyDir: {} }]),
      [`spec.volumes[0].name: Invalid value: "Data": ${LABEL}`],
    ],
    [
      'volume names are unique',
      (p) =>
        (p.spec.volumes = [
          { name: 'data', emptyDir: {} },
          { name: 'data', emptyDir: {} },
        ]),
      ['spec.volumes[1].name: Duplicate value: "data"'],
    ],
    [
      'a volume has one source',
      (p) => (p.spec.volumes = [{ name: 'data', emptyDir: {}, hostPath: { path: '/tmp' } }]),
      ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type'],
    ],
    [
      'a second downwardAPI source is reported at "downwarAPI", as kube spells it',
      (p) => (p.spec.volumes = [{ name: 'data', emptyDir: {}, downwardAPI: {} }]),
      ['spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type'],
    ],
    [
      'hostPath needs a path',
      (p) => (p.spec.volumes = [{ name: 'data', hostPath: { path: '' } }]),
      ['spec.volumes[0].hostPath.path: Required value'],
    ],
    [
      'hostPath type is an enum',
      (p) => (p.spec.volumes = [{ name: 'data', hostPath: { path: '/tmp', type: 'Dir' } }]),
      [
        'spec.volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
      ],
    ],
    [
      'hostPath may not step back',
      (p) => (p.spec.volumes = [{ name: 'data', hostPath: { path: '/var/../etc' } }]),
      [`spec.volumes[0].hostPath.path: Invalid value: "/var/../etc": must not contain '..'`],
    ],
    [
      'secret volumes name their secret',
      (p) => (p.spec.volumes = [{ name: 'data', secret: {} }]),
      ['spec.volumes[0].secret.secretName: Required value'],
    ],
    [
      'file modes are at most 0777',
      (p) => (p.spec.volumes = [{ name: 'data', configMap: { name: 'cm', defaultMode: 0o1000 } }]),
      [
        'spec.volumes[0].configMap.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
      ],
    ],
    [
      'key paths are relative',
      (p) => (p.spec.volumes = [{ name: 'data', configMap: { name: 'cm', items: [{ key: 'k', path: '/etc/k' }] } }]),
      ['spec.volumes[0].configMap.items[0].path: Invalid value: "/etc/k": must be a relative path'],
    ],
    [
      'claims are named',
      (p) => (p.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: '' } }]),
      ['spec.volumes[0].persistentVolumeClaim.claimName: Required value'],
    ],
    [
      'NFS paths are absolute',
      (p) => (p.spec.volumes = [{ name: 'data', nfs: { server: 'nfs', path: 'exports' } }]),
      ['spec.volumes[0].nfs.path: Invalid value: "exports": must be an absolute path'],
    ],
    [
      'projected tokens live at least 10 minutes',
      (p) =>
        (p.spec.volumes = [
          { name: 'data', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 60 } }] } },
        ]),
      [
        'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
    ],
    [
      'a projection source holds one projection',
      (p) =>
        (p.spec.volumes = [
          { name: 'data', projected: { sources: [{ secret: { name: 's' }, configMap: { name: 'c' } }] } },
        ]),
      ['spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source'],
    ],
    [
      'CSI drivers are DNS subdomains',
      (p) => (p.spec.volumes = [{ name: 'data', csi: { driver: 'bad_driver' } }]),
      [`spec.volumes[0].csi.driver: Invalid value: "bad_driver": ${SUBDOMAIN}`],
    ],
    [
      'generic ephemeral volumes need access modes and storage',
      (p) => (p.spec.volumes = [{ name: 'data', ephemeral: { volumeClaimTemplate: { spec: {} } } }]),
      [
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
      ],
    ],
  ])
})

describe('validatePod: probes and lifecycle hooks', () => {
  table([
    [
      'a probe needs a handler',
      (p) => (c0(p).livenessProbe = {}),
      ['spec.containers[0].livenessProbe: Required value: must specify a handler type'],
    ],
    [
      'a probe has one handler',
      (p) => (c0(p).livenessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 80 } }),
      ['spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
    ],
    [
      'exec needs a command',
      (p) => (c0(p).readinessProbe = { exec: {} }),
      ['spec.containers[0].readinessProbe.exec.command: Required value'],
    ],
    [
      'liveness successThreshold is 1',
      (p) => (c0(p).livenessProbe = { tcpSocket: { port: 80 }, successThreshold: 2 }),
      ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
    ],
    [
      'startup successThreshold is 1',
      (p) => (c0(p).startupProbe = { tcpSocket: { port: 80 }, successThreshold: 3 }),
      ['spec.containers[0].startupProbe.successThreshold: Invalid value: 3: must be 1'],
    ],
    [
      'readiness may need several successes',
      (p) => (c0(p).readinessProbe = { tcpSocket: { port: 80 }, successThreshold: 3 }),
      [],
    ],
    [
      'probe numbers are not negative',
      (p) => (c0(p).readinessProbe = { tcpSocket: { port: 80 }, initialDelaySeconds: -1 }),
      ['spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'readiness probes have no grace period',
      (p) => (c0(p).readinessProbe = { tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 10 }),
      [
        'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes',
      ],
    ],
    [
      'probe ports are numbers or port names',
      (p) => (c0(p).livenessProbe = { httpGet: { port: 'HTTP' } }),
      [
        'spec.containers[0].livenessProbe.httpGet.port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].livenessProbe.httpGet.port: Invalid value: "HTTP": must contain at least one letter (a-z)',
      ],
    ],
    [
      'a preStop sleep fits in the grace period',
      (p) => (c0(p).lifecycle = { preStop: { sleep: { seconds: 100 } } }),
      [
        'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 100: must be non-negative and less than terminationGracePeriodSeconds (30)',
      ],
    ],
  ])
})

describe('validatePod: init and ephemeral containers', () => {
  table([
    [
      'sidecars (restartPolicy Always) may have probes',
      (p) =>
        (p.spec.initContainers = [
          { name: 'proxy', image: 'envoy', restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 80 } } },
        ]),
      [],
    ],
    [
      'init containers only take restartPolicy Always',
      (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox', restartPolicy: 'OnFailure' }]),
      ['spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      'plain init containers have no probes',
      (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox', livenessProbe: { tcpSocket: { port: 80 } } }]),
      [
        'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      ],
    ],
    [
      'ephemeral containers are not accepted on create, nor their ports and probes',
      (p) =>
        (p.spec.ephemeralContainers = [
          {
            name: 'debug',
            image: 'busybox',
            ports: [{ containerPort: 80 }],
            readinessProbe: { tcpSocket: { port: 80 } },
            resources: { limits: { cpu: '1' } },
          },
        ]),
      [
        'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
        'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
        'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
        'spec.ephemeralContainers: Forbidden: cannot be set on create',
      ],
    ],
  ])
})

describe('validatePod: pod-level fields', () => {
  table([
    [
      'restartPolicy is an enum (kube order)',
      (p) => (p.spec.restartPolicy = 'Sometimes'),
      ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
    ],
    [
      'dnsPolicy is an enum (kube order)',
      (p) => (p.spec.dnsPolicy = 'Custom'),
      [
        'spec.dnsPolicy: Unsupported value: "Custom": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
    [
      'dnsPolicy None needs dnsConfig',
      (p) => (p.spec.dnsPolicy = 'None'),
      ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None'],
    ],
    [
      'dnsPolicy None needs a nameserver',
      (p) => {
        p.spec.dnsPolicy = 'None'
        p.spec.dnsConfig = { searches: ['example.com'] }
      },
      ['spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None'],
    ],
    [
      'at most three nameservers',
      (p) => (p.spec.dnsConfig = { nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] }),
      [
        'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4"}: must not have more than 3 nameservers',
      ],
    ],
    [
      'nameservers are IPs',
      (p) => (p.spec.dnsConfig = { nameservers: ['dns.example'] }),
      [`spec.dnsConfig.nameservers[0]: Invalid value: "dns.example": ${IP}`],
    ],
    ['nameservers may be IPv6', (p) => (p.spec.dnsConfig = { nameservers: ['2001:db8::1'] }), []],
    [
      'dns options are named',
      (p) => (p.spec.dnsConfig = { options: [{ value: '2' }] }),
      ['spec.dnsConfig.options[0]: Required value: must not be empty'],
    ],
    [
      'nodeSelector keys are label keys (reported on the map)',
      (p) => (p.spec.nodeSelector = { 'bad key': 'x' }),
      [`spec.nodeSelector: Invalid value: "bad key": ${QUALIFIED_NAME_PART}`],
    ],
    [
      'nodeSelector values are label values',
      (p) => (p.spec.nodeSelector = { disk: 'fast ssd' }),
      [`spec.nodeSelector: Invalid value: "fast ssd": ${LABEL_VALUE}`],
    ],
    [
      'hostname is a DNS label',
      (p) => (p.spec.hostname = 'My_Host'),
      [`spec.hostname: Invalid value: "My_Host": ${LABEL}`],
    ],
    [
      'subdomain is a DNS label',
      (p) => (p.spec.subdomain = 'a.b'),
      ['spec.subdomain: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'activeDeadlineSeconds is at least 1',
      (p) => (p.spec.activeDeadlineSeconds = 0),
      ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ],
    [
      'priorityClassName is a DNS subdomain',
      (p) => (p.spec.priorityClassName = 'High'),
      [`spec.priorityClassName: Invalid value: "High": ${SUBDOMAIN}`],
    ],
    [
      'serviceAccountName is a DNS subdomain',
      (p) => (p.spec.serviceAccountName = 'Bad_SA'),
      [`spec.serviceAccountName: Invalid value: "Bad_SA": ${SUBDOMAIN}`],
    ],
    [
      'nodeName is a DNS subdomain',
      (p) => (p.spec.nodeName = 'Node_1'),
      [`spec.nodeName: Invalid value: "Node_1": ${SUBDOMAIN}`],
    ],
    [
      'preemptionPolicy is an enum',
      (p) => (p.spec.preemptionPolicy = 'Sometimes'),
      ['spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    ],
    [
      'readiness gates are qualified names',
      (p) => (p.spec.readinessGates = [{ conditionType: 'a/b/c' }]),
      [`spec.readinessGates[0].conditionType: Invalid value: "a/b/c": ${QUALIFIED_TOO_MANY_SLASHES}`],
    ],
    ['readiness gates may be prefixed', (p) => (p.spec.readinessGates = [{ conditionType: 'example.com/ready' }]), []],
    [
      'a scheduled pod has no scheduling gates',
      (p) => {
        p.spec.nodeName = 'node-1'
        p.spec.schedulingGates = [{ name: 'example.com/wait' }]
      },
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    ],
    [
      'the os is linux or windows',
      (p) => (p.spec.os = { name: 'plan9' }),
      ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"'],
    ],
    [
      'host aliases hold IPs',
      (p) => (p.spec.hostAliases = [{ ip: '999.1.1.1', hostnames: ['db'] }]),
      [`spec.hostAliases[0].ip: Invalid value: "999.1.1.1": ${IP}`],
    ],
    [
      'deletion cost is an int32',
      (p) => (p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '1e3' }),
      [
        'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "1e3": must be a 32bit integer',
      ],
    ],
    [
      'a mirror pod is bound',
      (p) => (p.metadata.annotations = { 'kubernetes.io/config.mirror': 'abc' }),
      [
        'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "abc": must set spec.nodeName if mirror pod annotation is set',
      ],
    ],
  ])
})

describe('validatePod: tolerations', () => {
  const tolerate = (p: Body, t: unknown) => (p.spec.tolerations = [t])
  table([
    [
      'Exists takes no value',
      (p) => tolerate(p, { key: 'k', operator: 'Exists', value: 'v' }),
      ['spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\''],
    ],
    [
      'tolerationSeconds only with NoExecute',
      (p) => tolerate(p, { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 }),
      [
        'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
    ],
    [
      'an empty key needs Exists',
      (p) => tolerate(p, { operator: 'Equal' }),
      [
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
    [
      'operator is Equal or Exists in 1.33',
      (p) => tolerate(p, { key: 'k', operator: 'Lt', value: '5' }),
      ['spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"'],
    ],
    [
      'effect is a taint effect',
      (p) => tolerate(p, { key: 'k', operator: 'Exists', effect: 'NoRun' }),
      [
        'spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
    [
      'values are label values (reported at operator)',
      (p) => tolerate(p, { key: 'k', value: 'a b' }),
      [`spec.tolerations[0].operator: Invalid value: "a b": ${LABEL_VALUE}`],
    ],
    [
      'keys are label keys',
      (p) => tolerate(p, { key: 'a/b/c', operator: 'Exists' }),
      [`spec.tolerations[0].key: Invalid value: "a/b/c": ${QUALIFIED_TOO_MANY_SLASHES}`],
    ],
  ])
})

describe('validatePod: affinity and topology spread', () => {
  const required = (p: Body, terms: unknown[]) =>
    (p.spec.affinity = {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
    })
  const term = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms'
  table([
    [
      'required node affinity has terms',
      (p) => required(p, []),
      [`${term}: Required value: must have at least one node selector term`],
    ],
    [
      'node selector operators',
      (p) => required(p, [{ matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }] }]),
      [`${term}[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`],
    ],
    [
      'In needs values',
      (p) => required(p, [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }]),
      [`${term}[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`],
    ],
    [
      'Exists takes no values',
      (p) => required(p, [{ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }]),
      [
        `${term}[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      ],
    ],
    [
      'Gt takes one value',
      (p) => required(p, [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }]),
      [
        `${term}[0].matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      ],
    ],
    [
      'match fields only know metadata.name',
      (p) => required(p, [{ matchFields: [{ key: 'spec.unschedulable', operator: 'In', values: ['x'] }] }]),
      [`${term}[0].matchFields[0].key: Invalid value: "spec.unschedulable": not a valid field selector key`],
    ],
    [
      'preferred weights are 1-100',
      (p) =>
        (p.spec.affinity = {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
            ],
          },
        }),
      [
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      ],
    ],
    [
      'pod affinity needs a topology key',
      (p) =>
        (p.spec.affinity = {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: '' },
            ],
          },
        }),
      [
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
        `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${QUALIFIED_NAME_PART}`,
      ],
    ],
    [
      'maxSkew is positive',
      (p) =>
        (p.spec.topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }]),
      ['spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'],
    ],
    [
      'whenUnsatisfiable is an enum',
      (p) => (p.spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' }]),
      [
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    ],
    [
      'topologyKey/whenUnsatisfiable pairs are unique',
      (p) =>
        (p.spec.topologySpreadConstraints = [
          { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        ]),
      ['spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"'],
    ],
  ])
})

describe('validatePod: security contexts', () => {
  table([
    [
      'runAsUser is a uid',
      (p) => (p.spec.securityContext = { runAsUser: -1 }),
      ['spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 4294967295, inclusive'],
    ],
    [
      'container runAsGroup is a gid',
      (p) => (c0(p).securityContext = { runAsGroup: 4294967296 }),
      [
        'spec.containers[0].securityContext.runAsGroup: Invalid value: 4294967296: must be between 0 and 4294967295, inclusive',
      ],
    ],
    [
      'privileged implies privilege escalation (the value is Go-printed)',
      (p) => (c0(p).securityContext = { privileged: true, allowPrivilegeEscalation: false }),
      [
        'spec.containers[0].securityContext: Invalid value: core.SecurityContext{Capabilities:(*core.Capabilities)(nil), Privileged:(*bool)(0xc000000000), SELinuxOptions:(*core.SELinuxOptions)(nil), WindowsOptions:(*core.WindowsSecurityContextOptions)(nil), RunAsUser:(*int64)(nil), RunAsGroup:(*int64)(nil), RunAsNonRoot:(*bool)(nil), ReadOnlyRootFilesystem:(*bool)(nil), AllowPrivilegeEscalation:(*bool)(0xc000000000), ProcMount:(*core.ProcMountType)(nil), SeccompProfile:(*core.SeccompProfile)(nil), AppArmorProfile:(*core.AppArmorProfile)(nil)}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      ],
    ],
    [
      'Localhost seccomp names a profile',
      (p) => (p.spec.securityContext = { seccompProfile: { type: 'Localhost' } }),
      [
        'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      ],
    ],
    [
      'seccomp type is an enum',
      (p) => (c0(p).securityContext = { seccompProfile: { type: 'Strict' } }),
      [
        'spec.containers[0].securityContext.seccompProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      ],
    ],
    [
      'Unmasked /proc needs a user namespace',
      (p) => (c0(p).securityContext = { procMount: 'Unmasked' }),
      [
        'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
      ],
    ],
    [
      'sysctl names',
      (p) => (p.spec.securityContext = { sysctls: [{ name: 'Net.Core', value: '1' }] }),
      [
        'spec.securityContext.sysctls[0].name: Invalid value: "Net.Core": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      ],
    ],
    [
      'network sysctls are refused on the host network',
      (p) => {
        p.spec.hostNetwork = true
        p.spec.securityContext = { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] }
      },
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
      ],
    ],
  ])
})

describe('validatePod: bodies missing required fields', () => {
  // Go decodes absent fields as zero values, so kube reports them as such; none of this may throw.
  const hollow = (p: Body) => {
    p.spec.containers = [
      { livenessProbe: { httpGet: {} }, ports: [{}], env: [{}], volumeMounts: [{}], resizePolicy: [{}] },
    ]
    p.spec.initContainers = [{}]
    p.spec.volumes = [
      {},
      { projected: { sources: [{ serviceAccountToken: {} }] } },
      { ephemeral: { volumeClaimTemplate: {} } },
    ]
    p.spec.tolerations = [{}]
    p.spec.topologySpreadConstraints = [{}]
    p.spec.affinity = {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{}] }] } },
    }
    p.spec.resourceClaims = [{}]
    p.spec.os = {}
    p.spec.securityContext = { sysctls: [{}], seccompProfile: {} }
  }

  it('reports zero values the way kube does', () => {
    expect(rendered(validatePod(defaulted(hollow)))).toEqual([
      'spec.volumes[0].name: Required value',
      'spec.volumes[1].projected.path: Required value',
      'spec.volumes[1].name: Required value',
      'spec.volumes[2].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
      'spec.volumes[2].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
      'spec.volumes[2].name: Required value',
      'spec.resourceClaims[0].name: Required value',
      'spec.resourceClaims[0]: Invalid value: core.PodResourceClaim{Name:"", ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
      'spec.containers[0].name: Required value',
      'spec.containers[0].image: Required value',
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].env[0].name: Required value',
      'spec.containers[0].volumeMounts[0].name: Required value',
      'spec.containers[0].volumeMounts[0].name: Not found: ""',
      'spec.containers[0].volumeMounts[0].mountPath: Required value',
      'spec.containers[0].resizePolicy: Required value',
      'spec.containers[0].resizePolicy: Required value',
      'spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.initContainers[0].name: Required value',
      'spec.initContainers[0].image: Required value',
      'spec.initContainers[0].name: Duplicate value: ""',
      'spec.securityContext.sysctls[0].name: Required value',
      'spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator: Invalid value: "": not a valid selector operator',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "": not a valid field selector key',
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty',
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"',
      'spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'spec.os.name: Required value: cannot be empty',
    ])
  })
})
