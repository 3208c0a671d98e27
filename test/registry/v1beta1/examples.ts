// v1beta1 examples in the seed era's shapes (docs/v1beta1 API doc and the digest's §15 samples), shared by the tests.

/** A pod as a 2014 client wrote it (§15.3), without the server-set fields. */
export const seedPod = () => ({
  kind: 'Pod',
  apiVersion: 'v1beta1',
  id: 'web',
  labels: { name: 'web' },
  desiredState: {
    manifest: {
      version: 'v1beta1',
      id: 'web',
      volumes: [{ name: 'data', source: { emptyDir: {} } }],
      containers: [
        {
          name: 'nginx',
          image: 'nginx',
          command: ['nginx', '-g', 'daemon off;'],
          ports: [{ name: 'http', containerPort: 80, hostPort: 8080, protocol: 'TCP' }],
          env: [{ name: 'FOO', value: 'bar' }],
          volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: false }],
          livenessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15 },
          imagePullPolicy: 'PullIfNotPresent',
        },
      ],
      restartPolicy: { always: {} },
    },
  },
  nodeSelector: { disk: 'ssd' },
})

/** A replication controller (§15.4). */
export const seedRC = () => ({
  kind: 'ReplicationController',
  apiVersion: 'v1beta1',
  id: 'web-rc',
  labels: { name: 'web' },
  desiredState: {
    replicas: 2,
    replicaSelector: { name: 'web' },
    podTemplate: {
      desiredState: {
        manifest: {
          version: 'v1beta1',
          id: 'web',
          containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }],
        },
      },
      labels: { name: 'web' },
    },
  },
})

/** A service (§15.5). */
export const seedService = () => ({
  kind: 'Service',
  apiVersion: 'v1beta1',
  id: 'web',
  port: 8000,
  protocol: 'TCP',
  labels: { name: 'web' },
  selector: { name: 'web' },
  containerPort: 80,
  createExternalLoadBalancer: false,
  sessionAffinity: 'None',
})
