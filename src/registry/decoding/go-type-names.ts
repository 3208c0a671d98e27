// Go type names for our zod schemas: every exported schema of the src/schema modules is the Go type of the same name
// in its package (all of ours are named `v1`: core, meta, discovery, autoscaling), and a table names the fields whose
// Go type the schema cannot say (named string types declared as plain strings, inline structs, types.UID...).
import type { z } from 'zod'
import * as meta from '../../schema/meta'
import * as quantity from '../../schema/quantity'
import * as objectReference from '../../schema/object-reference'
import * as pod from '../../schema/pod'
import * as namespace from '../../schema/namespace'
import * as node from '../../schema/node'
import * as event from '../../schema/event'
import * as service from '../../schema/service'
import * as endpoints from '../../schema/endpoints'
import * as replicationController from '../../schema/replication-controller'
import * as endpointSlice from '../../schema/endpoint-slice'
import * as authentication from '../../schema/authentication'
import * as authorization from '../../schema/authorization'
import * as apiextensions from '../../schema/apiextensions'
import * as configMap from '../../schema/config-map'
import * as secret from '../../schema/secret'
import * as lease from '../../schema/lease'
import * as persistentVolume from '../../schema/persistent-volume'
import * as persistentVolumeClaim from '../../schema/persistent-volume-claim'
import * as ingress from '../../schema/ingress'
import * as networkPolicy from '../../schema/network-policy'
import * as priorityClass from '../../schema/priority-class'
import * as storageClass from '../../schema/storage-class'
import * as topologySelector from '../../schema/topology-selector'
import * as replicaSet from '../../schema/replica-set'
import * as deployment from '../../schema/deployment'
import * as podDisruptionBudget from '../../schema/pod-disruption-budget'
import * as daemonSet from '../../schema/daemon-set'
import * as statefulSet from '../../schema/stateful-set'
import * as controllerRevision from '../../schema/controller-revision'
import * as batch from '../../schema/batch'
import * as rbac from '../../schema/rbac'
import * as serviceAccount from '../../schema/service-account'
import * as limitRange from '../../schema/limit-range'
import * as resourceQuota from '../../schema/resource-quota'
import * as autoscalingV1 from '../../schema/autoscaling-v1'
import * as autoscalingV2 from '../../schema/autoscaling-v2'
import { FIELD_TYPES, POINTER_FIELDS } from './go-field-types'

const MODULES: Record<string, unknown>[] = [
  batch,
  meta,
  quantity,
  objectReference,
  pod,
  namespace,
  node,
  event,
  service,
  endpoints,
  replicationController,
  endpointSlice,
  authentication,
  authorization,
  apiextensions,
  podDisruptionBudget,
  daemonSet,
  statefulSet,
  controllerRevision,
  replicaSet,
  deployment,
  configMap,
  secret,
  lease,
  persistentVolume,
  persistentVolumeClaim,
  ingress,
  networkPolicy,
  priorityClass,
  storageClass,
  topologySelector,
  rbac,
  serviceAccount,
  limitRange,
  resourceQuota,
]

/** Exports that are helpers, not Go types. */
const NOT_GO_TYPES = new Set(['StringMap', 'int32', 'int64'])
/** Exports whose Go type lives in another package than `v1`. */
const PACKAGES: Record<string, string> = { IntOrString: 'intstr', Quantity: 'resource' }

type Internals = { _zod: { def: unknown; parent?: z.ZodType } }
const names = new Map<unknown, string>()
for (const module of MODULES) {
  for (const [exportName, value] of Object.entries(module)) {
    if (
      typeof value !== 'object' ||
      value === null ||
      !('_zod' in value) ||
      NOT_GO_TYPES.has(exportName) ||
      names.has(value)
    )
      continue
    names.set(value, `${PACKAGES[exportName] ?? 'v1'}.${exportName}`)
  }
}
// autoscaling/v1 is package v1 like the rest; autoscaling/v2's types are package v2 (`v2.MetricSpec` in errors).
for (const [module, pkg] of [
  [autoscalingV1, 'v1'],
  [autoscalingV2, 'v2'],
] as const)
  for (const [exportName, value] of Object.entries(module))
    if (typeof value === 'object' && value !== null && '_zod' in value && !names.has(value))
      names.set(value, `${pkg}.${exportName}`)

/** The Go type a schema was exported as; `.describe()`/`.meta()` clones (same definition) count as the original. */
export function registeredName(schema: z.ZodType): string | undefined {
  const def = (schema as unknown as Internals)._zod.def
  for (
    let s: z.ZodType | undefined = schema;
    s && (s as unknown as Internals)._zod.def === def;
    s = (s as unknown as Internals)._zod.parent
  ) {
    const name = names.get(s)
    if (name) return name
  }
  return undefined
}

/** The Go type of a struct's field when the schema cannot say it (see go-field-types.ts). */
export const goNameOverride = (struct: string, field: string): string | undefined => FIELD_TYPES[`${struct}.${field}`]

/** Whether Go declares a field the schema requires as a pointer (so a decoded struct leaves it nil, not zero). */
export const isPointerField = (struct: string, field: string) => POINTER_FIELDS.has(`${struct}.${field}`)
