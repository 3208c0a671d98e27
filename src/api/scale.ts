// The /scale subresource of replicationcontrollers: GET, PUT and PATCH an autoscaling/v1 Scale, a view of the RC's
// spec.replicas (and status.replicas, selector). Writes change only spec.replicas, optimistically locked.
import type { Context, Hono } from 'hono'
import { statuses, StatusError, type Result } from '../registry/status'
import { resourceByPlural } from '../registry/resources'
import type { ResourceDef } from '../registry/resource'
import type { KubeObject } from '../schema/meta'
import { Scale } from '../schema/replication-controller'
import { decodeObject } from '../registry/decode'
import { fieldError } from '../registry/field-errors'
import { applyPatch, type PatchType } from '../registry/patch/apply-patch'
import { mediaType, objectContentType, readBodyText } from './body'
import { addWarnings, json, statusResponse } from './respond'
import { call, hostFor } from './hosts'
import { dryRun, fieldManager, fieldValidation } from './query'
import { labelSelectorFromMatchLabels } from '../registry/label-selector'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>
type Obj = KubeObject & { spec?: { replicas?: number; selector?: Record<string, string> }; status?: { replicas?: number } }

/** A write whose body names no resourceVersion is retried this often when the RC changes under it. */
const RETRIES = 5

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
}

/** The kinds serving /scale (the row declares it); only replicationcontrollers so far. */
const scalable = () => ['replicationcontrollers'].map((p) => resourceByPlural(p)).filter((d): d is ResourceDef => !!d)

/** The resource row Scale bodies decode and patch against. */
const scaleDef = (def: ResourceDef): ResourceDef => ({ ...def, group: 'autoscaling', version: 'v1', kind: 'Scale', schema: Scale })

/** scaleFromRC: the Scale view of a stored object. */
export function scaleOf(obj: Obj): KubeObject {
  const m = obj.metadata
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: obj.spec?.replicas ?? 0 },
    status: { replicas: obj.status?.replicas ?? 0, selector: labelSelectorFromMatchLabels(obj.spec?.selector).toString() },
  }
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

/**
 * Reads the object, asks `next` for the Scale to write (from the current Scale), and writes its replicas with the
 * object's resourceVersion (or the Scale's, when it names one: then a stale one is the caller's 409).
 */
async function writeScale(c: Ctx, def: ResourceDef, ns: string, name: string, next: (current: KubeObject) => KubeObject) {
  // `next` sees the current Scale without its resourceVersion: one in its answer is the caller's precondition.
  const host = hostFor(c.env, def, ns)
  const isDryRun = dryRun(c)
  for (let attempt = 0; ; attempt++) {
    const current = unwrap(await call(() => host.get(def.plural, name))) as Obj
    const view = scaleOf(current)
    delete view.metadata.resourceVersion
    const scale = next(view) as KubeObject & { spec?: { replicas?: number } }
    if (scale.metadata?.name && scale.metadata.name !== name) {
      throw new StatusError(statuses.badRequest(`the name of the object (${scale.metadata.name}) does not match the name on the URL (${name})`))
    }
    const replicas = scale.spec?.replicas ?? 0
    if (replicas < 0) {
      throw new StatusError(statuses.invalid('Scale', name, [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')], 'autoscaling'))
    }
    const wanted = scale.metadata?.resourceVersion
    const updated = structuredClone(current)
    updated.spec = { ...(updated.spec ?? {}), replicas }
    updated.metadata.resourceVersion = wanted || current.metadata.resourceVersion
    const r = await call(() => host.update(def.plural, name, updated, { dryRun: isDryRun, fieldManager: fieldManager(c) }))
    if (r.ok) return json(c, scaleOf(r.value.object as Obj))
    if (wanted || r.status.code !== 409 || r.status.reason !== 'Conflict' || attempt >= RETRIES) throw new StatusError(r.status)
  }
}

async function getScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  const obj = unwrap(await call(() => hostFor(c.env, def, ns).get(def.plural, name))) as Obj
  return json(c, scaleOf(obj))
}

async function putScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  const body = { format: objectContentType(c).includes('yaml') ? 'yaml' : 'json', text: await readBodyText(c) } as const
  const decoded = decodeObject<KubeObject>({ schema: Scale, group: 'autoscaling', version: 'v1', kind: 'Scale' }, body, fieldValidation(c))
  addWarnings(c, decoded.warnings)
  return writeScale(c, def, ns, name, () => decoded.value)
}

async function patchScale(c: Ctx, def: ResourceDef, ns: string, name: string) {
  const type = PATCH_TYPES[mediaType(c)]
  if (!type) throw new StatusError(statuses.unsupportedMediaType(Object.keys(PATCH_TYPES)))
  const body = await readBodyText(c)
  const validation = fieldValidation(c)
  return writeScale(c, def, ns, name, (current) => {
    const patched = applyPatch(scaleDef(def), current, type, body, validation)
    if (!patched.ok) throw new StatusError(patched.status)
    addWarnings(c, patched.value.warnings)
    return patched.value.object
  })
}

const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, { ...statuses.methodNotSupported({ resource: '' }, ''), message: 'the server does not allow this method on the requested resource', details: {} })

export function registerScaleRoutes(app: App) {
  for (const def of scalable()) {
    const path = `/api/v1/namespaces/:namespace/${def.plural}/:name/scale`
    const args = (c: Ctx) => [def, c.req.param('namespace')!, c.req.param('name')!] as const
    app.get(path, (c) => getScale(c, ...args(c)))
    app.put(path, (c) => putScale(c, ...args(c)))
    app.patch(path, (c) => patchScale(c, ...args(c)))
    app.all(path, methodNotAllowed)
  }
}
