// zod shapes of v1beta1 request bodies (Pod, ReplicationController, Service). Like the 2014 decoder they drop unknown
// fields silently (z.object strips them); wrong types are 400s. Value rules are the v1 store's, after conversion.
import { z } from 'zod'

const StringMap = z.record(z.string(), z.string())
const int = z.number().int()
const IntOrString = z.union([int, z.string()])

const Envelope = {
  kind: z.string().optional(),
  apiVersion: z.string().optional(),
  id: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  creationTimestamp: z.string().optional(),
  selfLink: z.string().optional(),
  // An integer in v1beta1; tolerated as a numeric string, as later clients sent it.
  resourceVersion: z.union([int.min(0), z.string().regex(/^\d*$/)]).optional(),
  labels: StringMap.optional(),
  annotations: StringMap.optional(),
}

const Port = z.object({
  name: z.string().optional(),
  containerPort: int.optional(),
  hostPort: int.optional(),
  protocol: z.string().optional(),
  hostIP: z.string().optional(),
})

// `key` was the env name's pre-autumn-2014 spelling.
const Env = z
  .object({ name: z.string().optional(), key: z.string().optional(), value: z.string().optional() })
  .transform(({ key, ...rest }) => ({ ...rest, name: rest.name ?? key }))

const Mount = z.object({
  name: z.string().optional(),
  mountPath: z.string().optional(),
  readOnly: z.boolean().optional(),
})

const Probe = z.object({
  httpGet: z
    .object({ path: z.string().optional(), port: IntOrString.optional(), host: z.string().optional() })
    .optional(),
  tcpSocket: z.object({ port: IntOrString.optional() }).optional(),
  exec: z.object({ command: z.array(z.string()).optional() }).optional(),
  initialDelaySeconds: int.optional(),
  timeoutSeconds: int.optional(),
})

const Container = z.object({
  name: z.string().optional(),
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  workingDir: z.string().optional(),
  ports: z.array(Port).optional(),
  env: z.array(Env).optional(),
  volumeMounts: z.array(Mount).optional(),
  livenessProbe: Probe.optional(),
  memory: int.min(0).optional(),
  cpu: int.min(0).optional(),
  privileged: z.boolean().optional(),
  imagePullPolicy: z.string().optional(),
})

const Volume = z.object({
  name: z.string().optional(),
  source: z
    .object({
      emptyDir: z.object({}).optional(),
      hostDir: z.object({ path: z.string().optional() }).optional(),
      persistentDisk: z
        .object({
          pdName: z.string().optional(),
          fsType: z.string().optional(),
          partition: int.optional(),
          readOnly: z.boolean().optional(),
        })
        .optional(),
      gitRepo: z.object({ repository: z.string().optional(), revision: z.string().optional() }).optional(),
    })
    .optional(),
})

const RestartPolicy = z.union([
  z.object({ always: z.object({}).optional(), onFailure: z.object({}).optional(), never: z.object({}).optional() }),
  z.string(),
])

const Manifest = z.object({
  version: z.string().optional(),
  id: z.string().optional(),
  uuid: z.string().optional(),
  containers: z.array(Container).optional(),
  volumes: z.array(Volume).optional(),
  restartPolicy: RestartPolicy.optional(),
  dnsPolicy: z.string().optional(),
})

/** PodState; only desiredState's manifest and host are read, currentState is accepted and ignored. */
const PodState = z.object({ manifest: Manifest.optional(), host: z.string().optional() })

export const BetaPod = z.object({
  ...Envelope,
  desiredState: PodState.optional(),
  currentState: z.unknown().optional(),
  nodeSelector: StringMap.optional(),
})

export const BetaReplicationController = z.object({
  ...Envelope,
  desiredState: z
    .object({
      replicas: int.optional(),
      replicaSelector: StringMap.optional(),
      podTemplate: z
        .object({
          desiredState: PodState.optional(),
          nodeSelector: StringMap.optional(),
          labels: StringMap.optional(),
          annotations: StringMap.optional(),
        })
        .optional(),
    })
    .optional(),
  currentState: z.unknown().optional(),
})

export const BetaService = z.object({
  ...Envelope,
  port: int.optional(),
  protocol: z.string().optional(),
  containerPort: IntOrString.optional(),
  selector: StringMap.optional(),
  createExternalLoadBalancer: z.boolean().optional(),
  portalIP: z.string().optional(),
  publicIPs: z.array(z.string()).optional(),
  sessionAffinity: z.string().optional(),
  proxyPort: int.optional(),
})
