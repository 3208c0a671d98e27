// The /scale subresource: an autoscaling/v1 Scale view of a kind's replicas (kube's scaleFromRC and friends), and the
// write that sets them, planned against the newest object next to the state (kube's scaleUpdatedObjectInfo): the
// Scale's resourceVersion, when it names one, is a precondition; only spec.replicas changes.
import { clone } from './deep-equal'
import { fieldError } from './field-errors'
import { labelSelectorFromMatchLabels, labelSelectorFromMetaV1 } from './label-selector'
import { customScaleParts, setCustomReplicas } from './custom/custom-scale'
import type { ResourceDef } from './resource'
import { fail, ok, statuses, type Result } from './status'
import { parseObjectResourceVersion } from './resource-version'
import type { KubeObject } from '../schema/meta'
import { Scale } from '../schema/replication-controller'

type Obj = KubeObject & {
  spec?: { replicas?: number; selector?: Record<string, unknown> }
  status?: { replicas?: number }
}

/**
 * The pods a Scale counts, as text: a ReplicationController's selector is a map of strings, the apps kinds' a
 * metav1.LabelSelector (whose fields are a map and a list), read as LabelSelectorAsSelector reads it.
 */
function selectorText(selector: Record<string, unknown> | undefined): string {
  const values = Object.values(selector ?? {})
  if (values.every((v) => typeof v === 'string')) {
    return labelSelectorFromMatchLabels(selector as Record<string, string> | undefined).toString()
  }
  const parsed = labelSelectorFromMetaV1(selector as Parameters<typeof labelSelectorFromMetaV1>[0])
  return parsed.ok ? parsed.selector.toString() : ''
}

/** Whether a kind serves /scale (its row lists the subresource). */
export const servesScale = (def: ResourceDef) => def.subresources?.some((s) => s.name === 'scale') === true

/** The Scale view of a stored object. */
export function scaleOf(obj: KubeObject, def?: ResourceDef): KubeObject {
  const o = obj as Obj
  const m = o.metadata
  // A custom resource's replicas and selector live where its CRD says.
  const custom = def?.scale ? customScaleParts(obj, def.scale) : null
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: custom?.spec ?? { replicas: o.spec?.replicas ?? 0 },
    status: custom?.status ?? { replicas: o.status?.replicas ?? 0, selector: selectorText(o.spec?.selector) },
  }
}

/** The resource row Scale bodies decode and patch against. */
export const scaleRow = (def: ResourceDef): ResourceDef => ({
  ...def,
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  schema: Scale,
  // A Scale is decoded as its Go type even for a custom resource (a string spec is a decoding error, not replicas 0).
  unstructured: undefined,
})

/**
 * The object `scale` makes of `current` (its replicas set), or kube's refusal: a name that does not match the URL
 * (400), negative replicas (422 on the Scale), a resourceVersion that does not parse (400) or is stale (409).
 */
export function applyScale(
  def: ResourceDef,
  current: KubeObject,
  currentRv: number,
  scale: KubeObject,
  name: string,
): Result<KubeObject> {
  const s = scale as Obj
  if (s.metadata?.name && s.metadata.name !== name) {
    return fail(
      statuses.badRequest(`the name of the object (${s.metadata.name}) does not match the name on the URL (${name})`),
    )
  }
  const replicas = s.spec?.replicas ?? 0
  if (replicas < 0) {
    return fail(
      statuses.invalid(
        'Scale',
        name,
        [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')],
        'autoscaling',
      ),
    )
  }
  // The Scale's resourceVersion goes onto the object and is parsed there as any update's (0: none).
  const wanted = parseObjectResourceVersion(s.metadata?.resourceVersion)
  if (!wanted.ok) return fail(wanted.status)
  if (wanted.value !== 0 && wanted.value !== currentRv)
    return fail(statuses.modified({ resource: def.plural, group: def.group || undefined }, name))
  const next = clone(current) as Obj
  if (def.scale) setCustomReplicas(next, def.scale, replicas)
  else next.spec = { ...(next.spec ?? {}), replicas }
  return ok(next)
}
