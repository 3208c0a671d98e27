// Checks the core/v1 Pod schema: real apiserver output parses, unknown and mistyped fields fail where they are,
// and list/patch metadata and descriptions are present for the OpenAPI document.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  Container,
  type ContainerStatus,
  EphemeralContainer,
  Pod,
  type PodCondition,
  PodSpec,
  PodStatus,
  ResourceRequirements,
  type Toleration,
  type Volume,
} from '../../src/schema/pod'

/** A running Deployment pod as a 1.33 apiserver returns it from GET. */
const runningPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d4b9c8f6d-x2x9q',
    generateName: 'web-7d4b9c8f6d-',
    namespace: 'default',
    uid: '6f2b1f8e-3c55-4a8e-9c77-0d2b8f3a1e11',
    resourceVersion: '48213',
    creationTimestamp: '2025-05-01T10:00:00Z',
    labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
    annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-05-01T09:59:58Z' },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-7d4b9c8f6d',
        uid: 'a1f0c7de-5d0e-4a3b-8e0f-7c5b9d1e2f33',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    managedFields: [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2025-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {} } } },
      },
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2025-05-01T10:00:04Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:conditions': {} } },
        subresource: 'status',
      },
    ],
  },
  spec: {
    volumes: [
      { name: 'config', configMap: { name: 'web-config', defaultMode: 420 } },
      { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
      {
        name: 'kube-api-access-abcde',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
        },
      },
    ],
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.27',
        ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
        env: [
          { name: 'MODE', value: 'production' },
          { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          {
            name: 'CPU_LIMIT',
            valueFrom: { resourceFieldRef: { containerName: 'nginx', resource: 'limits.cpu', divisor: '1m' } },
          },
        ],
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '128Mi' } },
        volumeMounts: [
          { name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true },
          { name: 'cache', mountPath: '/var/cache/nginx' },
          { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
        ],
        livenessProbe: {
          httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
          initialDelaySeconds: 5,
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        readinessProbe: {
          tcpSocket: { port: 80 },
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true },
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    serviceAccount: 'default',
    nodeName: 'node-1',
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    priority: 0,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  },
  status: {
    phase: 'Running',
    conditions: [
      {
        type: 'PodReadyToStartContainers',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: '2025-05-01T10:00:03Z',
      },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-05-01T10:00:01Z' },
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-05-01T10:00:04Z' },
      { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-05-01T10:00:04Z' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-05-01T10:00:00Z' },
    ],
    hostIP: '10.0.0.5',
    hostIPs: [{ ip: '10.0.0.5' }],
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }, { ip: 'fd00:10:244:1::7' }],
    startTime: '2025-05-01T10:00:01Z',
    containerStatuses: [
      {
        containerID: 'containerd://4b8f2c1d9e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
        image: 'docker.io/library/nginx:1.27',
        imageID: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
        lastState: {},
        name: 'nginx',
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: '2025-05-01T10:00:03Z' } },
        allocatedResources: { cpu: '250m', memory: '128Mi' },
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '128Mi' } },
        user: { linux: { uid: 101, gid: 101, supplementalGroups: [101] } },
        volumeMounts: [
          { name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true, recursiveReadOnly: 'Disabled' },
          { name: 'cache', mountPath: '/var/cache/nginx' },
          {
            name: 'kube-api-access-abcde',
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            readOnly: true,
            recursiveReadOnly: 'Disabled',
          },
        ],
      },
    ],
    qosClass: 'Burstable',
  },
}

/** Every remaining type and field at least once, so a typo in a name or a type shows up here. */
const kitchenSinkPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'everything', namespace: 'lab' },
  spec: {
    volumes: [
      { name: 'host', hostPath: { path: '/var/log', type: 'DirectoryOrCreate' } },
      { name: 'host-any', hostPath: { path: '/tmp', type: '' } },
      { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: 64 } },
      { name: 'gce', gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4', partition: 1, readOnly: true } },
      { name: 'ebs', awsElasticBlockStore: { volumeID: 'vol-0abc', fsType: 'xfs', partition: 0, readOnly: false } },
      { name: 'git', gitRepo: { repository: 'https://example.com/repo.git', revision: 'main', directory: '.' } },
      {
        name: 'secret',
        secret: {
          secretName: 'tls',
          items: [{ key: 'tls.crt', path: 'cert.pem', mode: 256 }],
          defaultMode: 384,
          optional: true,
        },
      },
      { name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports', readOnly: true } },
      {
        name: 'iscsi',
        iscsi: {
          targetPortal: '10.0.0.9:3260',
          iqn: 'iqn.2001-04.com.example:storage',
          lun: 0,
          iscsiInterface: 'default',
          fsType: 'ext4',
          readOnly: true,
          portals: ['10.0.0.10:3260'],
          chapAuthDiscovery: true,
          chapAuthSession: true,
          secretRef: { name: 'chap' },
          initiatorName: 'iqn.1996-04.de.suse:01:abc',
        },
      },
      { name: 'gluster', glusterfs: { endpoints: 'glusterfs-cluster', path: 'vol', readOnly: true } },
      { name: 'claim', persistentVolumeClaim: { claimName: 'data', readOnly: false } },
      {
        name: 'rbd',
        rbd: {
          monitors: ['10.0.0.1:6789'],
          image: 'foo',
          fsType: 'ext4',
          pool: 'kube',
          user: 'admin',
          keyring: '/etc/ceph/keyring',
          secretRef: { name: 'ceph' },
          readOnly: true,
        },
      },
      {
        name: 'flex',
        flexVolume: {
          driver: 'example/lvm',
          fsType: 'ext4',
          secretRef: { name: 'f' },
          readOnly: true,
          options: { size: '1G' },
        },
      },
      { name: 'cinder', cinder: { volumeID: 'c1', fsType: 'ext4', readOnly: true, secretRef: { name: 'os' } } },
      {
        name: 'cephfs',
        cephfs: {
          monitors: ['10.0.0.1:6789'],
          path: '/',
          user: 'admin',
          secretFile: '/etc/ceph/admin.secret',
          secretRef: { name: 'ceph' },
          readOnly: true,
        },
      },
      { name: 'flocker', flocker: { datasetName: 'd', datasetUUID: 'u' } },
      {
        name: 'downward',
        downwardAPI: {
          items: [
            { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' }, mode: 420 },
            { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } },
          ],
          defaultMode: 420,
        },
      },
      {
        name: 'fc',
        fc: { targetWWNs: ['500a0982991b8dc5'], lun: 2, fsType: 'ext4', readOnly: true, wwids: ['3600508b'] },
      },
      { name: 'azfile', azureFile: { secretName: 'az', shareName: 'share', readOnly: true } },
      {
        name: 'cm',
        configMap: { name: 'settings', items: [{ key: 'a', path: 'a.txt' }], defaultMode: 420, optional: false },
      },
      {
        name: 'vsphere',
        vsphereVolume: {
          volumePath: '[ds] vol.vmdk',
          fsType: 'ext4',
          storagePolicyName: 'gold',
          storagePolicyID: 'p1',
        },
      },
      {
        name: 'quobyte',
        quobyte: { registry: 'reg:7861', volume: 'v', readOnly: true, user: 'u', group: 'g', tenant: 't' },
      },
      {
        name: 'azdisk',
        azureDisk: {
          diskName: 'd',
          diskURI: 'https://example.blob/d.vhd',
          cachingMode: 'ReadOnly',
          fsType: 'ext4',
          readOnly: true,
          kind: 'Managed',
        },
      },
      { name: 'photon', photonPersistentDisk: { pdID: 'p', fsType: 'ext4' } },
      {
        name: 'projected',
        projected: {
          sources: [
            { secret: { name: 's', items: [{ key: 'k', path: 'p' }], optional: true } },
            {
              clusterTrustBundle: {
                signerName: 'example.com/signer',
                labelSelector: { matchLabels: { a: 'b' } },
                optional: true,
                path: 'ca.pem',
              },
            },
            { clusterTrustBundle: { name: 'bundle-1', path: 'one.pem' } },
            {
              podCertificate: {
                signerName: 'example.com/pods',
                keyType: 'ED25519',
                maxExpirationSeconds: 86400,
                credentialBundlePath: 'bundle.pem',
                keyPath: 'key.pem',
                certificateChainPath: 'chain.pem',
                userAnnotations: { team: 'infra' },
              },
            },
            { serviceAccountToken: { audience: 'vault', expirationSeconds: 600, path: 'vault-token' } },
          ],
          defaultMode: 292,
        },
      },
      { name: 'portworx', portworxVolume: { volumeID: 'px', fsType: 'ext4', readOnly: true } },
      {
        name: 'scaleio',
        scaleIO: {
          gateway: 'https://gw',
          system: 'sys',
          secretRef: { name: 'sio' },
          sslEnabled: true,
          protectionDomain: 'pd',
          storagePool: 'sp',
          storageMode: 'ThinProvisioned',
          volumeName: 'v',
          fsType: 'xfs',
          readOnly: true,
        },
      },
      {
        name: 'storageos',
        storageos: {
          volumeName: 'v',
          volumeNamespace: 'ns',
          fsType: 'ext4',
          readOnly: true,
          secretRef: { name: 'sos' },
        },
      },
      {
        name: 'csi',
        csi: {
          driver: 'secrets-store.csi.k8s.io',
          readOnly: true,
          fsType: 'ext4',
          volumeAttributes: { secretProviderClass: 'vault' },
          nodePublishSecretRef: { name: 'creds' },
        },
      },
      {
        name: 'scratch-claim',
        ephemeral: {
          volumeClaimTemplate: {
            metadata: { labels: { type: 'scratch' } },
            spec: {
              accessModes: ['ReadWriteOnce'],
              selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fast'] }] },
              resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } },
              volumeName: 'pv-1',
              storageClassName: 'fast',
              volumeMode: 'Filesystem',
              dataSource: { kind: 'PersistentVolumeClaim', name: 'seed' },
              dataSourceRef: {
                apiGroup: 'snapshot.storage.k8s.io',
                kind: 'VolumeSnapshot',
                name: 'snap',
                namespace: 'lab',
              },
              volumeAttributesClassName: 'gold',
            },
          },
        },
      },
      { name: 'model', image: { reference: 'quay.io/models/llama:1', pullPolicy: 'IfNotPresent' } },
    ],
    initContainers: [
      {
        name: 'sidecar',
        image: 'envoy:1.30',
        restartPolicy: 'Always',
        startupProbe: { grpc: { port: 9901, service: 'health' }, failureThreshold: 30, periodSeconds: 1 },
        resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
      },
    ],
    containers: [
      {
        name: 'app',
        image: 'registry.example.com/app@sha256:abc',
        command: ['/app'],
        args: ['--port=8080'],
        workingDir: '/srv',
        ports: [
          { containerPort: 8080, protocol: 'TCP', name: 'http', hostPort: 8080, hostIP: '0.0.0.0' },
          { containerPort: 8080, protocol: 'UDP' },
        ],
        envFrom: [
          { prefix: 'CFG_', configMapRef: { name: 'settings', optional: true } },
          { secretRef: { name: 'creds', optional: false } },
        ],
        env: [
          { name: 'CM', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode', optional: true } } },
          { name: 'PW', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
          {
            name: 'FROM_FILE',
            valueFrom: { fileKeyRef: { volumeName: 'cm', path: 'vars.env', key: 'TOKEN', optional: true } },
          },
        ],
        resources: {
          limits: { cpu: 2, memory: '1Gi', 'nvidia.com/gpu': '1' },
          requests: { cpu: '1.5', memory: '512Mi' },
          claims: [{ name: 'gpu', request: 'big' }],
        },
        resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }],
        restartPolicy: 'Never',
        restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42, 43] } }],
        volumeMounts: [
          {
            name: 'claim',
            mountPath: '/data',
            subPath: 'app',
            readOnly: true,
            recursiveReadOnly: 'IfPossible',
            mountPropagation: 'None',
          },
          { name: 'host', mountPath: '/logs', subPathExpr: '$(POD_NAME)', mountPropagation: 'HostToContainer' },
        ],
        volumeDevices: [{ name: 'raw', devicePath: '/dev/xvda' }],
        livenessProbe: {
          exec: { command: ['cat', '/tmp/healthy'] },
          terminationGracePeriodSeconds: 10,
        },
        readinessProbe: {
          httpGet: {
            path: '/ready',
            port: 8080,
            host: '127.0.0.1',
            scheme: 'HTTPS',
            httpHeaders: [{ name: 'X-Probe', value: '1' }],
          },
        },
        lifecycle: {
          postStart: { exec: { command: ['/bin/warm'] } },
          preStop: { sleep: { seconds: 5 } },
          stopSignal: 'SIGUSR1',
        },
        securityContext: {
          capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
          privileged: false,
          seLinuxOptions: { user: 'system_u', role: 'system_r', type: 'spc_t', level: 's0:c123,c456' },
          windowsOptions: {
            gmsaCredentialSpecName: 'gmsa',
            gmsaCredentialSpec: '{}',
            runAsUserName: 'ContainerUser',
            hostProcess: false,
          },
          runAsUser: 1000,
          runAsGroup: 3000,
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          procMount: 'Default',
          seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/app.json' },
          appArmorProfile: { type: 'RuntimeDefault' },
        },
        stdin: true,
        stdinOnce: true,
        tty: true,
      },
    ],
    ephemeralContainers: [
      {
        name: 'debugger',
        image: 'busybox:1.36',
        command: ['sh'],
        stdin: true,
        tty: true,
        targetContainerName: 'app',
      },
    ],
    activeDeadlineSeconds: 3600,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    automountServiceAccountToken: false,
    hostNetwork: false,
    hostPID: false,
    hostIPC: false,
    shareProcessNamespace: true,
    securityContext: {
      seLinuxOptions: { level: 's0:c1,c2' },
      windowsOptions: { runAsUserName: 'ContainerAdministrator' },
      runAsUser: 1000,
      runAsGroup: 3000,
      runAsNonRoot: true,
      supplementalGroups: [4000, 5000],
      supplementalGroupsPolicy: 'Strict',
      fsGroup: 2000,
      sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
      fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
      appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-apparmor-example' },
      seLinuxChangePolicy: 'MountOption',
    },
    imagePullSecrets: [{ name: 'registry' }],
    hostname: 'everything',
    subdomain: 'lab-headless',
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] }],
              matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-9'] }],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 10, preference: { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] } },
        ],
      },
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: { matchLabels: { app: 'cache' } },
            topologyKey: 'kubernetes.io/hostname',
            namespaces: ['lab'],
            namespaceSelector: {},
            matchLabelKeys: ['pod-template-hash'],
          },
        ],
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
              topologyKey: 'topology.kubernetes.io/zone',
              mismatchLabelKeys: ['tenant'],
            },
          },
        ],
      },
    },
    schedulerName: 'custom-scheduler',
    tolerations: [
      { operator: 'Exists' },
      { key: 'dedicated', operator: 'Equal', value: 'lab', effect: 'NoSchedule' },
      { key: 'cores', operator: 'Gt', value: '4', effect: '' },
    ],
    hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
    priorityClassName: 'high',
    priority: 1000000,
    dnsConfig: {
      nameservers: ['1.1.1.1'],
      searches: ['lab.svc.cluster.local'],
      options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }],
    },
    readinessGates: [{ conditionType: 'example.com/feature-1' }],
    runtimeClassName: 'gvisor',
    enableServiceLinks: false,
    preemptionPolicy: 'Never',
    overhead: { cpu: '250m', memory: '120Mi' },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'everything' } },
        minDomains: 3,
        nodeAffinityPolicy: 'Honor',
        nodeTaintsPolicy: 'Ignore',
        matchLabelKeys: ['pod-template-hash'],
      },
    ],
    setHostnameAsFQDN: true,
    os: { name: 'linux' },
    hostUsers: false,
    schedulingGates: [{ name: 'example.com/quota' }],
    resourceClaims: [
      { name: 'gpu', resourceClaimTemplateName: 'gpu-template' },
      { name: 'shared', resourceClaimName: 'shared-claim' },
    ],
    resources: { requests: { cpu: '2' }, limits: { cpu: '4' } },
    hostnameOverride: 'everything.example',
    schedulingGroup: { podGroupName: 'training-0' },
  },
  status: {
    observedGeneration: 3,
    phase: 'Failed',
    message: 'Pod was terminated',
    reason: 'DeadlineExceeded',
    nominatedNodeName: 'node-2',
    conditions: [
      {
        type: 'DisruptionTarget',
        observedGeneration: 3,
        status: 'True',
        lastProbeTime: '2025-05-01T11:00:00Z',
        lastTransitionTime: '2025-05-01T11:00:00Z',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      },
      { type: 'example.com/feature-1', status: 'Unknown' },
    ],
    initContainerStatuses: [
      {
        name: 'sidecar',
        ready: false,
        restartCount: 2,
        image: 'envoy:1.30',
        imageID: '',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container' } },
        lastState: {
          terminated: {
            exitCode: 137,
            signal: 9,
            reason: 'OOMKilled',
            message: 'out of memory',
            startedAt: '2025-05-01T10:59:00Z',
            finishedAt: null,
            containerID: 'containerd://abc',
          },
        },
        stopSignal: 'SIGTERM',
      },
    ],
    containerStatuses: [
      {
        name: 'app',
        ready: false,
        restartCount: 0,
        image: 'registry.example.com/app@sha256:abc',
        imageID: 'registry.example.com/app@sha256:abc',
        state: { terminated: { exitCode: 0, startedAt: null, finishedAt: '2025-05-01T11:00:00Z' } },
        allocatedResourcesStatus: [
          {
            name: 'claim:gpu/big',
            resources: [{ resourceID: 'gpu-0', health: 'Unhealthy', message: 'ECC errors' }],
          },
        ],
        volumeMounts: [
          { name: 'model', mountPath: '/model', readOnly: true, volumeStatus: { image: { imageRef: 'sha256:def' } } },
        ],
      },
    ],
    ephemeralContainerStatuses: [
      {
        name: 'debugger',
        ready: false,
        restartCount: 0,
        image: 'busybox:1.36',
        imageID: 'docker.io/library/busybox@sha256:123',
        state: { running: { startedAt: null } },
      },
    ],
    resize: 'Infeasible',
    resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'everything-gpu-x7k2p' }],
    extendedResourceClaimStatus: {
      requestMappings: [{ containerName: 'app', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-0' }],
      resourceClaimName: 'everything-extended-resources-abcde',
    },
    allocatedResources: { cpu: '2', memory: '512Mi' },
    resources: { requests: { cpu: '2' }, limits: { cpu: '4' } },
    nodeAllocatableResourceClaimStatuses: [
      { resourceClaimName: 'everything-gpu-x7k2p', containers: ['app'], resources: { memory: '2Gi' } },
    ],
  },
}

/** The issues zod reports, trimmed to what the decoder relies on. */
function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input)
  expect(result.success).toBe(false)
  return (result.error?.issues ?? []).map((issue) => ({
    code: issue.code,
    path: issue.path,
    ...('keys' in issue ? { keys: issue.keys } : {}),
  }))
}

/** A deep copy of a fixture with one change applied, so tests cannot leak edits into each other. */
function variant<T>(fixture: T, change: (copy: T) => void): T {
  const copy = structuredClone(fixture)
  change(copy)
  return copy
}

describe('Pod parses real objects', () => {
  it('accepts a running pod exactly as the apiserver returns it', () => {
    const result = Pod.safeParse(runningPod)
    expect(result.error?.issues).toBeUndefined()
    expect(result.data).toEqual(runningPod)
  })

  it('accepts a pod using every field type', () => {
    const result = Pod.safeParse(kitchenSinkPod)
    expect(result.error?.issues).toBeUndefined()
  })

  it('accepts a bare create body', () => {
    expect(Pod.safeParse({ spec: { containers: [{ name: 'nginx' }] } }).success).toBe(true)
    expect(Pod.safeParse({}).success).toBe(true)
  })

  it('exports the nested schemas and their types', () => {
    const container: Container = { name: 'c', image: 'busybox' }
    const toleration: Toleration = { operator: 'Exists' }
    const condition: PodCondition = { type: 'Ready', status: 'True', lastProbeTime: null }
    const status: ContainerStatus = { name: 'c', ready: true, restartCount: 0, image: 'busybox', imageID: '' }
    const volume: Volume = { name: 'v', emptyDir: {} }
    const resources: ResourceRequirements = { limits: { cpu: '1' } }
    const spec: PodSpec = { containers: [container], tolerations: [toleration], volumes: [volume] }
    const podStatus: PodStatus = { conditions: [condition], containerStatuses: [status] }
    const pod: Pod = { metadata: { name: 'p' }, spec, status: podStatus }
    expect(Pod.safeParse(pod).success).toBe(true)
    expect(Container.safeParse({ name: 'c', resources }).success).toBe(true)
    expect(EphemeralContainer.safeParse({ name: 'e', targetContainerName: 'c' }).success).toBe(true)
  })
})

describe('Pod rejects unknown fields where they are', () => {
  it.each([
    [
      'a container',
      (p: typeof runningPod) => Object.assign(p.spec.containers[0]!, { foo: 1 }),
      ['spec', 'containers', 0],
    ],
    ['the spec', (p: typeof runningPod) => Object.assign(p.spec, { replicas: 3 }), ['spec']],
    ['the top level', (p: typeof runningPod) => Object.assign(p, { foo: true }), []],
    [
      'a projected volume source',
      (p: typeof runningPod) =>
        Object.assign(p.spec.volumes[2]!.projected!.sources[0]!.serviceAccountToken!, { foo: 'x' }),
      ['spec', 'volumes', 2, 'projected', 'sources', 0, 'serviceAccountToken'],
    ],
    [
      'a probe handler',
      (p: typeof runningPod) => Object.assign(p.spec.containers[0]!.livenessProbe.httpGet, { foo: 'x' }),
      ['spec', 'containers', 0, 'livenessProbe', 'httpGet'],
    ],
    [
      'a container status state',
      (p: typeof runningPod) => Object.assign(p.status.containerStatuses[0]!.state.running, { foo: 'x' }),
      ['status', 'containerStatuses', 0, 'state', 'running'],
    ],
    [
      'a condition',
      (p: typeof runningPod) => Object.assign(p.status.conditions[1]!, { foo: 'x' }),
      ['status', 'conditions', 1],
    ],
  ] as const)('in %s', (_where, change, path) => {
    const bad = variant(runningPod, change)
    expect(issuesOf(Pod, bad)).toEqual([{ code: 'unrecognized_keys', path: [...path], keys: [expect.any(String)] }])
  })

  it('names the unknown key', () => {
    const bad = variant(runningPod, (p) => Object.assign(p.spec.containers[0]!, { foo: 1 }))
    expect(issuesOf(Pod, bad)).toEqual([{ code: 'unrecognized_keys', path: ['spec', 'containers', 0], keys: ['foo'] }])
  })

  it('rejects fields of an older API version', () => {
    // v1beta1 spelled the container list under desiredState.manifest.
    expect(issuesOf(Pod, { desiredState: {} })).toEqual([
      { code: 'unrecognized_keys', path: [], keys: ['desiredState'] },
    ])
  })
})

describe('Pod rejects wrong types', () => {
  const cases: [string, (p: typeof runningPod) => void, (string | number)[], string][] = [
    [
      'a string port number',
      (p) => Object.assign(p.spec.containers[0]!.ports[0]!, { containerPort: '80' }),
      ['spec', 'containers', 0, 'ports', 0, 'containerPort'],
      'invalid_type',
    ],
    [
      'a fractional port number',
      (p) => Object.assign(p.spec.containers[0]!.ports[0]!, { containerPort: 80.5 }),
      ['spec', 'containers', 0, 'ports', 0, 'containerPort'],
      'invalid_type',
    ],
    ['an int32 overflow', (p) => Object.assign(p.spec, { priority: 2 ** 31 }), ['spec', 'priority'], 'too_big'],
    [
      'an unknown restart policy',
      (p) => Object.assign(p.spec, { restartPolicy: 'Sometimes' }),
      ['spec', 'restartPolicy'],
      'invalid_value',
    ],
    [
      'an unknown protocol',
      (p) => Object.assign(p.spec.containers[0]!.ports[0]!, { protocol: 'tcp' }),
      ['spec', 'containers', 0, 'ports', 0, 'protocol'],
      'invalid_value',
    ],
    ['an unknown phase', (p) => Object.assign(p.status, { phase: 'Done' }), ['status', 'phase'], 'invalid_value'],
    [
      'an unknown condition status',
      (p) => Object.assign(p.status.conditions[0]!, { status: 'true' }),
      ['status', 'conditions', 0, 'status'],
      'invalid_value',
    ],
    [
      'an unknown toleration operator',
      (p) => Object.assign(p.spec.tolerations[0]!, { operator: 'Matches' }),
      ['spec', 'tolerations', 0, 'operator'],
      'invalid_value',
    ],
    [
      'a bad quantity',
      (p) => Object.assign(p.spec.containers[0]!.resources.limits, { cpu: 'two' }),
      ['spec', 'containers', 0, 'resources', 'limits', 'cpu'],
      'custom',
    ],
    [
      'a string where a list belongs',
      (p) => Object.assign(p.spec.containers[0]!, { command: '/bin/sh -c' }),
      ['spec', 'containers', 0, 'command'],
      'invalid_type',
    ],
    [
      'a boolean as a string',
      (p) => Object.assign(p.spec, { enableServiceLinks: 'true' }),
      ['spec', 'enableServiceLinks'],
      'invalid_type',
    ],
    [
      'a missing container name',
      (p) => Reflect.deleteProperty(p.spec.containers[0]!, 'name'),
      ['spec', 'containers', 0, 'name'],
      'invalid_type',
    ],
    ['missing containers', (p) => Reflect.deleteProperty(p.spec, 'containers'), ['spec', 'containers'], 'invalid_type'],
    [
      'a missing restart count',
      (p) => Reflect.deleteProperty(p.status.containerStatuses[0]!, 'restartCount'),
      ['status', 'containerStatuses', 0, 'restartCount'],
      'invalid_type',
    ],
    [
      'a labels value that is not a string',
      (p) => Object.assign(p.metadata.labels, { tier: 1 }),
      ['metadata', 'labels', 'tier'],
      'invalid_type',
    ],
    [
      'a null outside the Time fields',
      (p) => Object.assign(p.spec, { nodeName: null }),
      ['spec', 'nodeName'],
      'invalid_type',
    ],
  ]
  it.each(cases)('%s', (_name, change, path, code) => {
    const issues = issuesOf(Pod, variant(runningPod, change))
    expect(issues).toEqual([expect.objectContaining({ code, path })])
  })

  it('accepts int64 values beyond int32', () => {
    const big = variant(runningPod, (p) => Object.assign(p.spec, { terminationGracePeriodSeconds: 2 ** 40 }))
    expect(Pod.safeParse(big).success).toBe(true)
  })

  it('accepts an IntOrString port as either form', () => {
    const named = variant(runningPod, (p) =>
      Object.assign(p.spec.containers[0]!.readinessProbe.tcpSocket, { port: 'http' }),
    )
    expect(Pod.safeParse(named).success).toBe(true)
  })
})

describe('list and patch metadata', () => {
  const list = (schema: z.ZodType) => {
    const meta = schema.meta() ?? {}
    return Object.fromEntries(Object.entries(meta).filter(([k]) => k.startsWith('x-kubernetes-')))
  }
  const merge = (key: string, keys: string[] = [key], strategy = 'merge') => ({
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': keys,
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-patch-strategy': strategy,
  })
  const atomic = { 'x-kubernetes-list-type': 'atomic' }
  const spec = PodSpec.shape
  const container = Container.shape
  const status = PodStatus.shape
  const table: [string, z.ZodType, Record<string, unknown>][] = [
    ['spec.containers', spec.containers, merge('name')],
    ['spec.initContainers', spec.initContainers, merge('name')],
    ['spec.ephemeralContainers', spec.ephemeralContainers, merge('name')],
    ['spec.volumes', spec.volumes, merge('name', ['name'], 'merge,retainKeys')],
    ['spec.imagePullSecrets', spec.imagePullSecrets, merge('name')],
    ['spec.hostAliases', spec.hostAliases, merge('ip')],
    ['spec.schedulingGates', spec.schedulingGates, merge('name')],
    [
      'spec.topologySpreadConstraints',
      spec.topologySpreadConstraints,
      merge('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
    ],
    ['spec.resourceClaims', spec.resourceClaims, merge('name', ['name'], 'merge,retainKeys')],
    ['spec.tolerations', spec.tolerations, atomic],
    ['spec.readinessGates', spec.readinessGates, atomic],
    ['containers[].ports', container.ports, merge('containerPort', ['containerPort', 'protocol'])],
    ['containers[].env', container.env, merge('name')],
    ['containers[].volumeMounts', container.volumeMounts, merge('mountPath')],
    ['containers[].volumeDevices', container.volumeDevices, merge('devicePath')],
    ['containers[].command', container.command, atomic],
    ['containers[].args', container.args, atomic],
    ['containers[].envFrom', container.envFrom, atomic],
    ['containers[].resizePolicy', container.resizePolicy, atomic],
    [
      'ephemeralContainers[].ports',
      EphemeralContainer.shape.ports,
      merge('containerPort', ['containerPort', 'protocol']),
    ],
    ['status.conditions', status.conditions, merge('type')],
    ['status.podIPs', status.podIPs, merge('ip')],
    [
      'status.hostIPs',
      status.hostIPs,
      {
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-patch-merge-key': 'ip',
        'x-kubernetes-patch-strategy': 'merge',
      },
    ],
    ['status.containerStatuses', status.containerStatuses, atomic],
    ['status.resourceClaimStatuses', status.resourceClaimStatuses, merge('name', ['name'], 'merge,retainKeys')],
    [
      'resources.claims',
      ResourceRequirements.shape.claims,
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    ],
    ['spec.nodeSelector', spec.nodeSelector, { 'x-kubernetes-map-type': 'atomic' }],
  ]
  it.each(table)('%s', (_path, schema, expected) => {
    expect(list(schema)).toEqual(expected)
    // The same metadata is what the OpenAPI generator reads through the global registry.
    expect(z.globalRegistry.get(schema)).toMatchObject(expected)
  })

  it('keeps the description next to the list metadata', () => {
    expect(spec.containers.meta()?.description).toEqual(expect.any(String))
    expect(spec.containers.description).toEqual(expect.any(String))
  })

  it('tags the Pod with its group, version and kind', () => {
    expect(Pod.meta()?.['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }])
  })

  it('survives JSON Schema generation', () => {
    const json = z.toJSONSchema(Pod, { io: 'input' }) as unknown as {
      'x-kubernetes-group-version-kind'?: unknown
      properties: { spec: { properties: { containers: Record<string, unknown> } } }
    }
    expect(json['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }])
    expect(json.properties.spec.properties.containers).toMatchObject(merge('name'))
  })
})

describe('schema invariants', () => {
  interface Found {
    path: string
    schema: z.ZodType
  }
  /** Every schema reachable from Pod, with a readable path. */
  function walk(schema: z.ZodType, path: string, out: Found[], seen = new Set<z.ZodType>()): Found[] {
    if (seen.has(schema)) return out
    seen.add(schema)
    out.push({ path, schema })
    if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
      walk(schema.unwrap() as z.ZodType, path, out, seen)
    else if (schema instanceof z.ZodArray) walk(schema.element as z.ZodType, `${path}[]`, out, seen)
    else if (schema instanceof z.ZodRecord) walk(schema.valueType as z.ZodType, `${path}{}`, out, seen)
    else if (schema instanceof z.ZodUnion)
      for (const option of schema.options) walk(option as z.ZodType, path, out, seen)
    else if (schema instanceof z.ZodObject)
      for (const [key, field] of Object.entries(schema.shape)) walk(field as z.ZodType, `${path}.${key}`, out, seen)
    return out
  }
  const found = walk(Pod, 'Pod', [])
  const objects = found.filter((f): f is { path: string; schema: z.ZodObject } => f.schema instanceof z.ZodObject)

  it('reaches the whole tree', () => {
    expect(objects.length).toBeGreaterThan(120)
  })

  it('makes every object strict', () => {
    const loose = objects.filter((o) => !(o.schema.def.catchall instanceof z.ZodNever)).map((o) => o.path)
    expect(loose).toEqual([])
  })

  it('describes every pod type and field', () => {
    const missing: string[] = []
    for (const { path, schema } of objects) {
      if (path.startsWith('Pod.metadata') || path.includes('.metadata.')) continue
      if (!schema.description) missing.push(path)
      for (const [key, field] of Object.entries(schema.shape)) {
        if (!(field as z.ZodType).description) missing.push(`${path}.${key}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('declares a list type on every pod list', () => {
    const undeclared = found
      .filter((f) => f.schema instanceof z.ZodArray && !f.path.includes('metadata'))
      .filter((f) => {
        const owner = found.find((o) => o.path === f.path && o.schema !== f.schema && o.schema instanceof z.ZodOptional)
        const meta = (owner?.schema ?? f.schema).meta() ?? {}
        return !('x-kubernetes-list-type' in meta)
      })
      .map((f) => f.path)
    expect(undeclared).toEqual([])
  })
})
