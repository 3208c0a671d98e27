// The Event strategy: kube's validation of core/v1 Events (legacyValidateEvent, names as path segments), its event
// field selectors and the `kubectl get events` table.
import { NAME_DOC } from '../table-column-docs'
import type { Event } from '../../schema/event'
import type { ObjectMeta } from '../../schema/meta'
import type { Strategy } from '../strategy'
import { fieldError, type FieldError } from '../field-errors'
import { byteLength, isQualifiedName, type ValidateNameFunc } from '../validation/names'
import { age } from '../human-duration'

type EventObject = Omit<Event, 'metadata'> & { metadata: ObjectMeta }

const FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
] as const

/**
 * The generic store's name check, path.ValidatePathSegmentName: core/v1 Events get no other (the DNS subdomain rule
 * is events.k8s.io/v1's), so `Bad_Name!` is a fine Event name; a generateName may even be `.`.
 */
const nameIsPathSegment: ValidateNameFunc = (name, prefix) => {
  const errs: string[] = []
  if (!prefix && (name === '.' || name === '..')) errs.push(`may not be '${name}'`)
  if (name.includes('/')) errs.push("may not contain '/'")
  if (name.includes('%')) errs.push("may not contain '%'")
  return errs
}

/** The length limits of events.go, in bytes as Go's len counts them. */
const LIMIT = { reportingInstance: 128, action: 128, reason: 128, message: 1024 }

/**
 * legacyValidateEvent (pkg/apis/core/validation/events.go), all kube checks of a core/v1 Event: an event without an
 * eventTime must sit in its involved object's namespace (one without a namespace only in "" or "default"); one with
 * an eventTime (a new-style event) may leave the namespace out only in default or kube-system and must name its
 * reporting controller, instance, action and reason. Errors name the Go fields (`reportingController`). The type and
 * count are not checked through this API.
 */
function validateEvent(e: EventObject): FieldError[] {
  const errs: FieldError[] = []
  const ns = e.metadata.namespace ?? ''
  const involved = e.involvedObject?.namespace ?? ''
  const mismatch = () =>
    errs.push(fieldError.invalid('involvedObject.namespace', involved, 'does not match event.namespace'))
  if (!e.eventTime) {
    if (involved === '' ? ns !== '' && ns !== 'default' : ns !== involved) mismatch()
    return errs
  }
  if (involved === '' && ns !== 'default' && ns !== 'kube-system') mismatch()
  const controller = e.reportingComponent ?? ''
  if (controller === '') errs.push(fieldError.required('reportingController'))
  for (const msg of isQualifiedName(controller)) errs.push(fieldError.invalid('reportingController', controller, msg))
  const tooLong = (field: keyof typeof LIMIT) =>
    errs.push(fieldError.invalid(field, '', `can have at most ${LIMIT[field]} characters`))
  for (const field of ['reportingInstance', 'action', 'reason'] as const) {
    const value = e[field] ?? ''
    if (value === '') errs.push(fieldError.required(field))
    if (byteLength(value) > LIMIT[field]) tooLong(field)
  }
  if (byteLength(e.message ?? '') > LIMIT.message) tooLong('message')
  return errs
}

/** The object column: kind/name, lowercased kind as kubectl prints it. */
const objectCell = (e: EventObject) => `${(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`

export const eventStrategy: Strategy<EventObject> = {
  validateName: nameIsPathSegment,
  applyDefaults(e) {
    e.type ??= 'Normal'
  },
  prepareForCreate: () => undefined,
  validate: validateEvent,
  prepareForUpdate: () => undefined,
  validateUpdate: validateEvent,
  selectableFields: (e) => ({
    'metadata.name': e.metadata.name ?? '',
    'metadata.namespace': e.metadata.namespace ?? '',
    'involvedObject.kind': e.involvedObject?.kind ?? '',
    'involvedObject.namespace': e.involvedObject?.namespace ?? '',
    'involvedObject.name': e.involvedObject?.name ?? '',
    'involvedObject.uid': e.involvedObject?.uid ?? '',
    'involvedObject.apiVersion': e.involvedObject?.apiVersion ?? '',
    'involvedObject.resourceVersion': e.involvedObject?.resourceVersion ?? '',
    'involvedObject.fieldPath': e.involvedObject?.fieldPath ?? '',
    reason: e.reason ?? '',
    reportingComponent: e.reportingComponent ?? '',
    source: e.source?.component ?? '',
    type: e.type ?? '',
  }),
  fieldSelectorNames: FIELDS,
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      {
        name: 'Last Seen',
        type: 'string',
        format: '',
        description: 'The time at which the most recent occurrence of this event was recorded.',
        priority: 0,
      },
      {
        name: 'Type',
        type: 'string',
        format: '',
        description: 'Type of this event (Normal, Warning), new types could be added in the future',
        priority: 0,
      },
      {
        name: 'Reason',
        type: 'string',
        format: '',
        description:
          "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
        priority: 0,
      },
      { name: 'Object', type: 'string', format: '', description: 'The object that this event is about.', priority: 0 },
      {
        name: 'Subobject',
        type: 'string',
        format: '',
        description:
          'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
        priority: 1,
      },
      {
        name: 'Source',
        type: 'string',
        format: '',
        description: 'The component reporting this event. Should be a short machine understandable string.',
        priority: 1,
      },
      {
        name: 'Message',
        type: 'string',
        format: '',
        description: 'A human-readable description of the status of this operation.',
        priority: 0,
      },
      {
        name: 'First Seen',
        type: 'string',
        format: '',
        description: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
        priority: 1,
      },
      {
        name: 'Count',
        type: 'string',
        format: '',
        description: 'The number of times this event has occurred.',
        priority: 1,
      },
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 1 },
    ],
    cells(e, now) {
      const last = e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.metadata.creationTimestamp
      const first = e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp
      const source = e.source?.component
        ? e.source.host
          ? `${e.source.component}, ${e.source.host}`
          : e.source.component
        : (e.reportingComponent ?? '')
      return [
        age(last, now),
        e.type ?? '',
        e.reason ?? '',
        objectCell(e),
        e.involvedObject?.fieldPath ?? '',
        source,
        (e.message ?? '').trim(),
        age(first, now),
        String(e.series?.count ?? e.count ?? 1),
        e.metadata.name ?? '',
      ]
    },
  },
}
