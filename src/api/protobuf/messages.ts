// Protobuf message descriptors for the kinds kubectl may send as application/vnd.kubernetes.protobuf: field number ->
// JSON name and type, per k8s.io/api core/v1 (and policy/v1, autoscaling/v1, authentication/v1) and apimachinery
// meta/v1 generated.proto, plus which apiVersion/kind maps to which top-level message. This file is the index: it
// composes each kind family's table (./meta-messages.ts, service-, pod-, volume-, pod-status-, core-,
// subresource-messages.ts and the groups' own) and parses a field's notation.
//
// Each field is written 'jsonName:type' with these marks:
//   []T      repeated T                       {T}   map<string, T> (T: string, bytes or Quantity)
//   ...:T    T's fields are inlined into the parent (a Go struct embedded with `json:",inline"`)
//   !        keep zero values. Go's generated marshallers write every non-pointer scalar, so "" / 0 / false arrive
//            on the wire for fields nobody set; the JSON a Go client would have sent drops them (`omitempty`). So
//            zero scalars are dropped unless the Go field is a pointer (an explicit zero is meaningful, e.g.
//            replicas: 0) or its JSON tag has no omitempty (e.g. a container port's containerPort).
// Message-typed fields are always kept when present, even empty ({} — Go's omitempty never drops structs), except
// Time/MicroTime, whose zero value is JSON null and so is left out.
// Scalars: string int32 int64 bool bytes. Specials: Quantity IntOrString Time MicroTime FieldsV1.

import { REVIEW_KINDS, REVIEW_MESSAGES } from '../reviews/review-messages'
import { RBAC_KINDS, RBAC_MESSAGES } from '../../registry/rbac/rbac-messages'
import { POLICY_KINDS, POLICY_MESSAGES } from './policy-messages'
import { SCHEDULING_KINDS, SCHEDULING_MESSAGES } from './scheduling-messages'
import { APPS_KINDS, APPS_MESSAGES } from './apps-messages'
import { BATCH_KINDS, BATCH_MESSAGES } from './batch-messages'
import { AUTOSCALING_KINDS, AUTOSCALING_MESSAGES } from './autoscaling-messages'
import { META_MESSAGES } from './meta-messages'
import { SERVICE_MESSAGES } from './service-messages'
import { POD_MESSAGES } from './pod-messages'
import { VOLUME_MESSAGES } from './volume-messages'
import { POD_STATUS_MESSAGES } from './pod-status-messages'
import { CORE_MESSAGES } from './core-messages'
import { SUBRESOURCE_MESSAGES } from './subresource-messages'

type Table = Record<string, Record<number, string>>

/** Every message descriptor, by Go type name (the review and RBAC kinds keep theirs beside their own code). */
export const MESSAGES: Table = {
  ...META_MESSAGES,
  ...SERVICE_MESSAGES,
  ...POD_MESSAGES,
  ...VOLUME_MESSAGES,
  ...POD_STATUS_MESSAGES,
  ...CORE_MESSAGES,
  ...SUBRESOURCE_MESSAGES,
  ...REVIEW_MESSAGES,
  ...RBAC_MESSAGES,
  ...POLICY_MESSAGES,
  ...SCHEDULING_MESSAGES,
  ...APPS_MESSAGES,
  ...BATCH_MESSAGES,
  ...AUTOSCALING_MESSAGES,
}

/** Top-level message per "apiVersion kind"; DeleteOptions is accepted under any apiVersion (clients send their group's). */
const KINDS: Record<string, string> = {
  'v1 Namespace': 'Namespace',
  'v1 Service': 'Service',
  'v1 Endpoints': 'Endpoints',
  'v1 Pod': 'Pod',
  'v1 ReplicationController': 'ReplicationController',
  'v1 Binding': 'Binding',
  'v1 Event': 'Event',
  'v1 ConfigMap': 'ConfigMap',
  'v1 Secret': 'Secret',
  'v1 ServiceAccount': 'ServiceAccount',
  'v1 ResourceQuota': 'ResourceQuota',
  'policy/v1 Eviction': 'Eviction',
  'policy/v1beta1 Eviction': 'Eviction',
  'autoscaling/v1 Scale': 'Scale',
  'authentication.k8s.io/v1 TokenRequest': 'TokenRequest',
  ...REVIEW_KINDS,
  ...RBAC_KINDS,
  ...POLICY_KINDS,
  ...SCHEDULING_KINDS,
  ...APPS_KINDS,
  ...BATCH_KINDS,
  ...AUTOSCALING_KINDS,
}

/** The top-level message for an object's apiVersion and kind, or undefined when it is not one we decode. */
export function objectMessage(apiVersion: string, kind: string): string | undefined {
  if (kind === 'DeleteOptions') return 'DeleteOptions'
  return Object.hasOwn(KINDS, `${apiVersion} ${kind}`) ? KINDS[`${apiVersion} ${kind}`] : undefined
}

export const SCALARS = ['string', 'int32', 'int64', 'bool', 'bytes'] as const
const SPECIALS = ['Quantity', 'IntOrString', 'Time', 'MicroTime', 'FieldsV1'] as const

/** One parsed field. `type` is a scalar, a special, or a message name from MESSAGES. */
export interface Field {
  json: string
  type: string
  inline: boolean
  repeated: boolean
  map: boolean
  keep: boolean
}

const FIELD_RE = /^(\.\.\.|[A-Za-z][A-Za-z0-9]*):(\[\])?(\{)?([A-Za-z0-9]+)(\})?(!)?$/
const MAP_VALUES = new Set(['string', 'bytes', 'Quantity'])
const isKnownType = (t: string) =>
  (SCALARS as readonly string[]).includes(t) ||
  (SPECIALS as readonly string[]).includes(t) ||
  Object.hasOwn(MESSAGES, t)

function parseField(message: string, spec: string): Field {
  const m = FIELD_RE.exec(spec)
  const bad = (why: string) => new Error(`protobuf descriptor ${message}: '${spec}' ${why}`)
  if (!m) throw bad('is not name:type')
  const [, json = '', list, open, type = '', close, bang] = m
  if (Boolean(open) !== Boolean(close)) throw bad('has an unbalanced map brace')
  if (!isKnownType(type)) throw bad(`names unknown type ${type}`)
  if (open && !MAP_VALUES.has(type)) throw bad(`maps to ${type}, which is not a supported map value`)
  const inline = json === '...'
  if (inline && (list || open || !Object.hasOwn(MESSAGES, type)))
    throw bad('inlines something that is not a single message')
  return { json, type, inline, repeated: Boolean(list), map: Boolean(open), keep: Boolean(bang) }
}

const parsed = new Map<string, Map<number, Field>>()

/** The fields of a message by number, parsed on first use (so a cold Worker only pays for the kinds it sees). */
export function messageFields(message: string): Map<number, Field> {
  let fields = parsed.get(message)
  if (fields) return fields
  if (!Object.hasOwn(MESSAGES, message)) throw new Error(`protobuf descriptor: no message ${message}`)
  fields = new Map()
  for (const [num, spec] of Object.entries(MESSAGES[message]!)) fields.set(Number(num), parseField(message, spec))
  parsed.set(message, fields)
  return fields
}
