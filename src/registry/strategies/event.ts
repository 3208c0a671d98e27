// The Event strategy: involvedObject required, kube's event field selectors and the `kubectl get events` table.
import type { Event } from '../../schema/event'
import type { ObjectMeta } from '../../schema/meta'
import type { Strategy } from '../strategy'
import { fieldError, type FieldError } from '../field-errors'
import { nameIsDNSSubdomain } from '../validation/names'
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

function validateEvent(e: EventObject): FieldError[] {
  const errs: FieldError[] = []
  const io = e.involvedObject
  if (io?.namespace && e.metadata.namespace && io.namespace !== e.metadata.namespace) {
    errs.push(fieldError.invalid('involvedObject.namespace', io.namespace, 'does not match event.namespace'))
  }
  if (e.type && e.type !== 'Normal' && e.type !== 'Warning')
    errs.push(fieldError.notSupported('type', e.type, ['Normal', 'Warning']))
  if (e.count !== undefined && e.count < 0)
    errs.push(fieldError.invalid('count', e.count, 'must be greater than or equal to 0'))
  return errs
}

/** The object column: kind/name, lowercased kind as kubectl prints it. */
const objectCell = (e: EventObject) => `${(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`

export const eventStrategy: Strategy<EventObject> = {
  validateName: nameIsDNSSubdomain,
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
        description: 'Time since the event was last observed',
        priority: 0,
      },
      { name: 'Type', type: 'string', format: '', description: 'Normal or Warning', priority: 0 },
      { name: 'Reason', type: 'string', format: '', description: 'Why the event happened', priority: 0 },
      { name: 'Object', type: 'string', format: '', description: 'The object the event is about', priority: 0 },
      {
        name: 'Subobject',
        type: 'string',
        format: '',
        description: 'The part of the object the event is about',
        priority: 1,
      },
      { name: 'Source', type: 'string', format: '', description: 'Who reported the event', priority: 1 },
      { name: 'Message', type: 'string', format: '', description: 'What happened', priority: 0 },
      {
        name: 'First Seen',
        type: 'string',
        format: '',
        description: 'Time since the event was first observed',
        priority: 1,
      },
      { name: 'Count', type: 'string', format: '', description: 'How many times the event occurred', priority: 1 },
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the event object', priority: 1 },
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
