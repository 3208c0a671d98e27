// The pods/ephemeralcontainers subresource (`kubectl debug`): the same pod, planned with a strategy under which
// only spec.ephemeralContainers may change, and only by adding containers.
import type { ResourceDef } from './resource'
import type { Strategy } from './strategy'
import type { KubeObject } from '../schema/meta'
import { clone, deepEqual } from './deep-equal'
import { fieldError, type FieldError } from './field-errors'
import { nameIsDNSLabel } from './validation/names'

type Obj = Record<string, any>

/** Fields an ephemeral container may not set (it has no ports, probes, lifecycle or resources of its own). */
const FORBIDDEN = [
  'ports',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'resources',
  'resizePolicy',
  'restartPolicy',
]

/** Defaulting leaves empty objects (resources: {}); only a value that says something is refused. */
const isSet = (v: unknown) => v !== undefined && !(typeof v === 'object' && v !== null && Object.keys(v).length === 0)

function validateEphemeral(pod: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = []
  const next = (pod.spec?.ephemeralContainers ?? []) as Obj[]
  const prev = (old.spec?.ephemeralContainers ?? []) as Obj[]
  for (const p of prev) {
    const n = next.find((x) => x.name === p.name)
    if (!n) {
      errs.push(
        fieldError.forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers ${JSON.stringify(p.name)} may not be removed`,
        ),
      )
    } else if (!deepEqual(n, p)) {
      errs.push(
        fieldError.forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers ${JSON.stringify(p.name)} may not be changed`,
        ),
      )
    }
  }
  const names = new Set(
    [...((pod.spec?.containers ?? []) as Obj[]), ...((pod.spec?.initContainers ?? []) as Obj[])].map((c) => c.name),
  )
  next.forEach((c, i) => {
    if (prev.some((p) => p.name === c.name)) return
    const path = `spec.ephemeralContainers[${i}]`
    if (!c.name) errs.push(fieldError.required(`${path}.name`))
    else {
      for (const m of nameIsDNSLabel(c.name, false)) errs.push(fieldError.invalid(`${path}.name`, c.name, m))
      if (names.has(c.name)) errs.push(fieldError.duplicate(`${path}.name`, c.name))
      names.add(c.name)
    }
    if (!c.image) errs.push(fieldError.required(`${path}.image`))
    for (const f of FORBIDDEN)
      if (isSet(c[f])) errs.push(fieldError.forbidden(`${path}.${f}`, 'cannot be set for an Ephemeral Container'))
    if (
      c.targetContainerName &&
      !((pod.spec?.containers ?? []) as Obj[]).some((x) => x.name === c.targetContainerName)
    ) {
      errs.push(fieldError.notFound(`${path}.targetContainerName`, c.targetContainerName))
    }
  })
  return errs
}

function ephemeralStrategy<T extends KubeObject>(base: Strategy<T>): Strategy<T> {
  return {
    ...base,
    prepareForUpdate(obj, old) {
      const containers = (obj as Obj).spec?.ephemeralContainers
      const meta = obj.metadata
      for (const k of Object.keys(obj)) if (k !== 'metadata') delete (obj as Obj)[k]
      for (const [k, v] of Object.entries(old)) if (k !== 'metadata') (obj as Obj)[k] = clone(v)
      ;(obj as Obj).spec = { ...(obj as Obj).spec }
      if (containers === undefined) delete (obj as Obj).spec.ephemeralContainers
      else (obj as Obj).spec.ephemeralContainers = containers
      // Metadata comes from the stored object, except what the store manages on every write.
      const rv = meta.resourceVersion
      const managed = meta.managedFields
      for (const k of Object.keys(meta)) delete (meta as Obj)[k]
      Object.assign(meta, clone(old.metadata))
      if (rv !== undefined) meta.resourceVersion = rv
      else delete meta.resourceVersion
      if (managed !== undefined) meta.managedFields = managed
    },
    validateUpdate: (obj, old) => validateEphemeral(obj as Obj, old as Obj),
  }
}

const cache = new WeakMap<ResourceDef, ResourceDef>()

export function ephemeralDefOf(def: ResourceDef): ResourceDef | undefined {
  if (!def.subresources?.some((s) => s.name === 'ephemeralcontainers')) return undefined
  let found = cache.get(def)
  if (!found) {
    found = { ...def, strategy: ephemeralStrategy(def.strategy) }
    cache.set(def, found)
  }
  return found
}
