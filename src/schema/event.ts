// core/v1 Event: a report of something that happened to an object, shown by `kubectl describe`.
import { z } from 'zod'
import { MicroTime, ObjectMeta, Time, int32 } from './meta'
import { ObjectReference } from './object-reference'

export const EventSource = z
  .strictObject({
    component: z.string().optional().describe('Component that reported the event'),
    host: z.string().optional().describe('Node the event was reported from'),
  })
  .describe('Who reported an event')

export const EventSeries = z
  .strictObject({
    count: int32.optional().describe('Occurrences in this series so far'),
    lastObservedTime: MicroTime.optional().describe('When the last occurrence was seen'),
  })
  .describe('A series of repeated occurrences of one event')

export const Event = z
  .strictObject({
    kind: z.string().optional().describe('REST resource this object represents'),
    apiVersion: z.string().optional().describe('Versioned schema of this representation'),
    metadata: ObjectMeta.optional(),
    involvedObject: ObjectReference.describe('The object the event is about'),
    reason: z.string().optional().describe('Short machine-readable reason for the transition, in CamelCase'),
    message: z.string().optional().describe('Human-readable description of what happened'),
    source: EventSource.optional().describe('Component reporting the event'),
    firstTimestamp: Time.optional().describe('When the event was first recorded'),
    lastTimestamp: Time.optional().describe('When the most recent occurrence was recorded'),
    count: int32.optional().describe('How many times the event occurred'),
    type: z.string().optional().describe('Normal or Warning'),
    eventTime: MicroTime.optional().describe('When the event was first observed, with microseconds'),
    series: EventSeries.optional().describe('Data about a series of occurrences, for repeated events'),
    action: z.string().optional().describe('What action was taken or failed'),
    related: ObjectReference.optional().describe('A secondary object involved'),
    reportingComponent: z.string().optional().describe('Controller that emitted the event, e.g. kubelet'),
    reportingInstance: z.string().optional().describe('Instance of the reporting controller, e.g. a node name'),
  })
  .describe('A report of an event somewhere in the cluster')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Event' }] })

export type Event = z.infer<typeof Event>
