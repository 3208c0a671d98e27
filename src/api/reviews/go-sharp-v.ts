// Go's %#v of the values kube's review validation quotes in its field errors (field.Invalid falls back to %#v for
// structs): the request's ObjectMeta as the create handler left it, and the internal NonResourceAttributes.
// Pointers print their address in Go, which no one can reproduce; a fixed stand-in address takes its place.
import { goQuote } from '../../registry/go-strings'
import { isObject, type Json, type ManagedEntry } from './go-values'

const POINTER = '0xc000000000'

const strings = (v: unknown) =>
  Array.isArray(v) ? `[]string{${v.map((s) => goQuote(String(s))).join(', ')}}` : '[]string(nil)'

/** map[string]string: keys sorted, as fmt prints maps. */
function stringMap(v: unknown): string {
  if (!isObject(v)) return 'map[string]string(nil)'
  const keys = Object.keys(v).sort()
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(v[k]))}`).join(', ')}}`
}

const MONTHS = 'January February March April May June July August September October November December'.split(' ')

/** time.Time's GoString, for a time in UTC (Go's has nanoseconds; ours milliseconds). */
function goTime(d: Date): string {
  const parts = [d.getUTCFullYear(), `time.${MONTHS[d.getUTCMonth()]}`, d.getUTCDate(), d.getUTCHours()]
  const nanos = d.getUTCMilliseconds() * 1_000_000
  return `time.Date(${parts.join(', ')}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, ${nanos}, time.UTC)`
}

const ZERO_TIME = 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)'
const optionalBool = (v: unknown) => (v === undefined || v === null ? '(*bool)(nil)' : `(*bool)(${POINTER})`)

function ownerReferences(v: unknown): string {
  if (!Array.isArray(v)) return '[]v1.OwnerReference(nil)'
  const refs = v.map((r) => {
    const o = isObject(r) ? r : {}
    const s = (k: string) => goQuote(typeof o[k] === 'string' ? (o[k] as string) : '')
    return (
      `v1.OwnerReference{APIVersion:${s('apiVersion')}, Kind:${s('kind')}, Name:${s('name')}, UID:${s('uid')}, ` +
      `Controller:${optionalBool(o.controller)}, BlockOwnerDeletion:${optionalBool(o.blockOwnerDeletion)}}`
    )
  })
  return `[]v1.OwnerReference{${refs.join(', ')}}`
}

function managedFields(entries: readonly ManagedEntry[] | undefined): string {
  if (!entries) return '[]v1.ManagedFieldsEntry(nil)'
  const items = entries.map(
    (e) =>
      `v1.ManagedFieldsEntry{Manager:${goQuote(e.manager)}, Operation:${goQuote(e.operation)}, ` +
      `APIVersion:${goQuote(e.apiVersion)}, Time:${goTime(new Date(e.time))}, FieldsType:${goQuote(e.fieldsType)}, ` +
      `FieldsV1:(*v1.FieldsV1)(${POINTER}), Subresource:${goQuote(e.subresource ?? '')}}`,
  )
  return `[]v1.ManagedFieldsEntry{${items.join(', ')}}`
}

/**
 * %#v of the metav1.ObjectMeta a review's validation sees: the system fields wiped (uid, selfLink, the timestamps and
 * the grace period), `managed` the entry the field manager added. `at` is when that entry was recorded.
 */
export function sharpObjectMeta(meta: Json, managed: readonly ManagedEntry[] | undefined, at: Date): string {
  const s = (k: string) => goQuote(typeof meta[k] === 'string' ? (meta[k] as string) : '')
  const generation = typeof meta.generation === 'number' ? meta.generation : 0
  const entries = managed?.map((e) => ({ ...e, time: at.toISOString() }))
  return (
    `v1.ObjectMeta{Name:${s('name')}, GenerateName:${s('generateName')}, Namespace:${s('namespace')}, ` +
    `SelfLink:"", UID:"", ResourceVersion:${s('resourceVersion')}, Generation:${generation}, ` +
    `CreationTimestamp:${ZERO_TIME}, DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), ` +
    `Labels:${stringMap(meta.labels)}, Annotations:${stringMap(meta.annotations)}, ` +
    `OwnerReferences:${ownerReferences(meta.ownerReferences)}, Finalizers:${strings(meta.finalizers)}, ` +
    `ManagedFields:${managedFields(entries)}}`
  )
}

/** %#v of the internal authorization.NonResourceAttributes a pointer in the spec points at. */
export const sharpNonResourceAttributes = (v: Json) =>
  `authorization.NonResourceAttributes{Path:${goQuote(typeof v.path === 'string' ? v.path : '')}, ` +
  `Verb:${goQuote(typeof v.verb === 'string' ? v.verb : '')}}`
