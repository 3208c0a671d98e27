// Kube-style component names for our zod schemas (io.k8s.api.core.v1.PodSpec, ...meta.v1.ObjectMeta), taken from the
// export names of the src/schema modules, plus the few named scalars whose OpenAPI form differs from their zod form.
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
import * as rbac from '../../schema/rbac'
import * as serviceAccount from '../../schema/service-account'
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
import * as autoscalingV1 from '../../schema/autoscaling-v1'
import * as autoscalingV2 from '../../schema/autoscaling-v2'
import * as limitRange from '../../schema/limit-range'
import * as resourceQuota from '../../schema/resource-quota'
import * as wireTypes from './wire-types'

type Schema = z.ZodType
type Json = Record<string, unknown>

const CORE_V1 = 'io.k8s.api.core.v1'
const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1'

/**
 * Every schema module and the Go package its types live in upstream. A new module adds one line here; until then
 * its kinds are still served complete (their object types inlined, the kind named from the resource table).
 */
const SCHEMA_MODULES: [module: Record<string, unknown>, pkg: string][] = [
  [meta, META_V1],
  [objectReference, CORE_V1],
  [pod, CORE_V1],
  [namespace, CORE_V1],
  [node, CORE_V1],
  [event, CORE_V1],
  [service, CORE_V1],
  [endpoints, CORE_V1],
  [replicationController, CORE_V1],
  [serviceAccount, CORE_V1],
  [endpointSlice, 'io.k8s.api.discovery.v1'],
  [rbac, 'io.k8s.api.rbac.v1'],
  [authentication, 'io.k8s.api.authentication.v1'],
  [authorization, 'io.k8s.api.authorization.v1'],
  [apiextensions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1'],
  [configMap, CORE_V1],
  [secret, CORE_V1],
  [lease, 'io.k8s.api.coordination.v1'],
  [persistentVolume, CORE_V1],
  [persistentVolumeClaim, CORE_V1],
  [ingress, 'io.k8s.api.networking.v1'],
  [networkPolicy, 'io.k8s.api.networking.v1'],
  [priorityClass, 'io.k8s.api.scheduling.v1'],
  [storageClass, 'io.k8s.api.storage.v1'],
  [topologySelector, CORE_V1],
  [replicaSet, 'io.k8s.api.apps.v1'],
  [deployment, 'io.k8s.api.apps.v1'],
  [podDisruptionBudget, 'io.k8s.api.policy.v1'],
  [daemonSet, 'io.k8s.api.apps.v1'],
  [statefulSet, 'io.k8s.api.apps.v1'],
  [controllerRevision, 'io.k8s.api.apps.v1'],
  [batch, 'io.k8s.api.batch.v1'],
  [autoscalingV1, 'io.k8s.api.autoscaling.v1'],
  [autoscalingV2, 'io.k8s.api.autoscaling.v2'],
  [limitRange, CORE_V1],
  [resourceQuota, CORE_V1],
  [wireTypes, META_V1],
]

/** Types that upstream keeps in another package than the module they are declared in. */
const PACKAGE_OVERRIDES: Record<string, string> = {
  LabelSelector: META_V1,
  LabelSelectorRequirement: META_V1,
  FieldSelectorRequirement: META_V1,
  Scale: 'io.k8s.api.autoscaling.v1',
}

/**
 * Named scalars: they are strings or unions in zod but components of their own upstream, where explain prints them
 * by name (`<IntOrString>`, `map[string]Quantity`) or by their type (`<string>` for Time). The bodies mirror
 * kube-openapi's v3 output; IntOrString also carries x-kubernetes-int-or-string as CRD schemas spell it.
 */
const SCALARS: [schema: Schema, name: string, body: Json][] = [
  [meta.Time, `${META_V1}.Time`, { type: 'string', format: 'date-time' }],
  [meta.MicroTime, `${META_V1}.MicroTime`, { type: 'string', format: 'date-time' }],
  [
    meta.IntOrString,
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
  ],
  [
    quantity.Quantity,
    'io.k8s.apimachinery.pkg.api.resource.Quantity',
    { oneOf: [{ type: 'string' }, { type: 'number' }] },
  ],
]

const isZod = (v: unknown): v is Schema => typeof v === 'object' && v !== null && '_zod' in v
const defType = (s: Schema) => (s as unknown as { _zod: { def: { type: string } } })._zod.def.type

const names = new Map<Schema, string>()
const scalarBodies = new Map<string, Json>()
for (const [schema, name, body] of SCALARS) {
  names.set(schema, name)
  scalarBodies.set(name, body)
}
/** Names two different schemas would share; the later one is written inline instead (a test keeps this empty). */
export const NAME_CLASHES: string[] = []
const taken = new Set(names.values())
for (const [module, pkg] of SCHEMA_MODULES) {
  for (const [exportName, value] of Object.entries(module)) {
    // Only object types are named upstream; enums, maps and number formats are written inline where used.
    if (!isZod(value) || defType(value) !== 'object' || names.has(value)) continue
    const name = `${PACKAGE_OVERRIDES[exportName] ?? pkg}.${exportName}`
    if (taken.has(name)) {
      NAME_CLASHES.push(name)
      continue
    }
    taken.add(name)
    names.set(value, name)
  }
}

type Internals = { _zod: { def: unknown; parent?: Schema } }
const internals = (s: Schema) => s as unknown as Internals

/**
 * The named type a schema is, or undefined if it is written inline. `.describe()` and `.meta()` return clones that
 * share the original's definition, so a field declared as `PodAffinityTerm.describe('...')` is still that type.
 */
export function named(schema: Schema): { schema: Schema; name: string } | undefined {
  const def = internals(schema)._zod.def
  for (let s: Schema | undefined = schema; s && internals(s)._zod.def === def; s = internals(s)._zod.parent) {
    const name = names.get(s)
    if (name) return { schema: s, name }
  }
  return undefined
}

const byName = new Map([...names].map(([schema, name]) => [name, schema]))

/** The schema registered under a component name (for subresource kinds such as autoscaling/v1 Scale). */
export const schemaNamed = (name: string): Schema | undefined => byName.get(name)

/** The fixed body of a named scalar, or undefined for object types (which are generated from their zod shape). */
export const scalarBody = (name: string): Json | undefined => scalarBodies.get(name)

/** The package a kind's component goes in when its schema module is not listed: by API group, as upstream does. */
export function packageForGroup(group: string, version: string): string {
  return group === '' ? `io.k8s.api.core.${version}` : `io.k8s.api.${group.split('.')[0]}.${version}`
}
