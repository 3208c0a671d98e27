// A v1beta1 PUT, planned against the newest stored object: the v1beta1 body converted onto it (so fields v1beta1
// cannot express survive), shape-checked as a v1 body, with the body's resourceVersion (if any) as a precondition.
import { checkShape, handlingPrefix } from '../decode'
import type { ResourceDef } from '../resource'
import { fail, ok, statuses, StatusError, type Result } from '../status'
import type { KubeObject } from '../../schema/meta'
import { BETA_KINDS, betaDecodeMessage, toV1Object, type BetaKind } from './kinds'

type Json = Record<string, unknown>

const betaKindOf = (plural: string): BetaKind | undefined => BETA_KINDS.find((k) => k.plural === plural)

/** resourceVersion as a v1beta1 client sends it: an integer (or numeric string); 0 or absent is unconditional. */
function wantedVersion(beta: Json): string | undefined {
  const rv = beta.resourceVersion
  if (rv === undefined || rv === '' || Number(rv) === 0) return undefined
  return String(Number(rv))
}

/** The v1 object a v1beta1 body converts to (onto `base` when replacing), shape-checked like any v1 body. */
export function convertedBeta(kind: BetaKind, def: ResourceDef, beta: Json, base?: KubeObject): Result<KubeObject> {
  const obj = toV1Object(kind, beta, base)
  try {
    return ok(checkShape<KubeObject>(def.schema, obj, handlingPrefix(def.kind, 'v1'), 'Ignore', null).value)
  } catch (e) {
    if (e instanceof StatusError) return fail({ ...e.status, message: betaDecodeMessage(kind, e.status.message ?? '') })
    throw e
  }
}

/** The object a v1beta1 replace of `current` (stored at `currentRv`) writes, or its refusal (409 for a stale version). */
export function betaReplacement(
  def: ResourceDef,
  current: KubeObject,
  currentRv: number,
  beta: Json,
  name: string,
): Result<KubeObject> {
  const kind = betaKindOf(def.plural)
  if (!kind) return fail(statuses.pathNotFound())
  const wanted = wantedVersion(beta)
  if (wanted !== undefined && wanted !== String(currentRv))
    return fail(statuses.modified({ resource: def.plural }, name))
  const obj = convertedBeta(kind, def, beta, current)
  if (obj.ok) obj.value.metadata.resourceVersion = String(currentRv)
  return obj
}
