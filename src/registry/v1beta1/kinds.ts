// The v1beta1 kinds (path segment, v1 resource, table, body shape) and the object and list shapes built from them:
// v1 object -> v1beta1 object with kind, apiVersion and selfLink; v1beta1 body -> v1 object over the stored one.
import type { z } from 'zod'
import type { KubeObject } from '../../schema/meta'
import type { Status } from '../status'
import { betaField, toBeta, toV1, type Row } from './fields'
import { POD_ROWS, podPreDecode } from './pod'
import { RC_ROWS } from './replication-controller'
import { SERVICE_ROWS } from './service'
import { BetaPod, BetaReplicationController, BetaService } from './schemas'

type Json = Record<string, unknown>

export interface BetaKind {
  /** The v1beta1 path segment: `pods`, `replicationControllers` (camelCase, as in 2014), `services`. */
  path: string
  /** The v1 resource the objects are stored as. */
  plural: string
  kind: string
  listKind: string
  rows: Row[]
  schema: z.ZodType
  /** Normalizes a decoded body before conversion (the pod's manifest id). */
  preDecode?: (beta: Json) => Json
}

export const BETA_KINDS: BetaKind[] = [
  {
    path: 'pods',
    plural: 'pods',
    kind: 'Pod',
    listKind: 'PodList',
    rows: POD_ROWS,
    schema: BetaPod,
    preDecode: podPreDecode,
  },
  {
    path: 'replicationControllers',
    plural: 'replicationcontrollers',
    kind: 'ReplicationController',
    listKind: 'ReplicationControllerList',
    rows: RC_ROWS,
    schema: BetaReplicationController,
  },
  {
    path: 'services',
    plural: 'services',
    kind: 'Service',
    listKind: 'ServiceList',
    rows: SERVICE_ROWS,
    schema: BetaService,
  },
]

/** A v1beta1 path for an object or collection; the namespace rides as a query parameter unless it is `default`. */
export function selfLink(kind: BetaKind, namespace: string, name?: string): string {
  const path = `/api/v1beta1/${kind.path}${name === undefined ? '' : `/${name}`}`
  return namespace === 'default' ? path : `${path}?namespace=${encodeURIComponent(namespace)}`
}

export function toBetaObject(kind: BetaKind, obj: KubeObject): Json {
  const body = toBeta(kind.rows, obj as unknown as Json)
  const ns = obj.metadata.namespace ?? 'default'
  return { kind: kind.kind, apiVersion: 'v1beta1', ...body, selfLink: selfLink(kind, ns, obj.metadata.name) }
}

export function toBetaList(kind: BetaKind, namespace: string, items: KubeObject[], resourceVersion: number): Json {
  return {
    kind: kind.listKind,
    apiVersion: 'v1beta1',
    creationTimestamp: null,
    selfLink: selfLink(kind, namespace),
    resourceVersion,
    items: items.map((o) => toBetaObject(kind, o)),
  }
}

/** The v1 object a v1beta1 body stands for; on update `base` is the stored object (v1-only fields survive). */
export function toV1Object(kind: BetaKind, beta: Json, base?: KubeObject): KubeObject {
  const obj = toV1(
    kind.rows,
    kind.preDecode ? kind.preDecode(beta) : beta,
    base as unknown as Json | undefined,
  ) as unknown as KubeObject
  obj.apiVersion = 'v1'
  obj.kind = kind.kind
  obj.metadata ??= {}
  return obj
}

/**
 * A decoding error of the converted v1 object (`Pod in version "v1" cannot be handled as a Pod: <field>: ...`) as
 * the v1beta1 body's: its version and field path.
 */
export function betaDecodeMessage(kind: BetaKind, message: string): string {
  const parts = message.split(': ')
  if (parts.length < 3 || !parts[0]!.startsWith(`${kind.kind} in version "v1"`)) return message
  parts[0] = parts[0]!.replace('"v1"', '"v1beta1"')
  parts[1] = betaField(kind.rows, parts[1]!) ?? parts[1]!
  return parts.join(': ')
}

/** Rewrites the v1 field paths of a validation Status into the v1beta1 paths the client wrote. */
export function betaStatus(kind: BetaKind, status: Status): Status {
  const causes = status.details?.causes
  if (!causes?.length) return status
  let message = status.message ?? ''
  const mapped = causes.map((c) => {
    const field = c.field ? betaField(kind.rows, c.field) : null
    if (!field || !c.field) return c
    message = message.split(`${c.field}:`).join(`${field}:`)
    return { ...c, field }
  })
  return { ...status, message, details: { ...status.details, causes: mapped } }
}
