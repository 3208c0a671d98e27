// The JSON serializer's Decode over a parsed document (k8s.io/apimachinery runtime/serializer/json and versioning):
// read apiVersion and kind as Go's json meta factory does, default them from the endpoint, make the object the
// scheme creates for them, decode into it, then convert it to the endpoint's type. Errors come back unprefixed,
// with the group/version/kind they were read as (null when it could not be read), for callers to word as kube does.
import type { z } from 'zod'
import { Endpoints } from '../../schema/endpoints'
import { EndpointSlice } from '../../schema/endpoint-slice'
import { Event } from '../../schema/event'
import { Namespace } from '../../schema/namespace'
import { Node } from '../../schema/node'
import { Pod } from '../../schema/pod'
import { ReplicationController, Scale } from '../../schema/replication-controller'
import { Service } from '../../schema/service'
import { Deployment } from '../../schema/deployment'
import { ReplicaSet } from '../../schema/replica-set'
import type { UnstructuredCodec } from '../resource'
import { goTypeOf } from './go-types'
import { goUnmarshal } from './go-unmarshal'
import { RawNumber } from './go-json-numbers'
import { TOO_DEEP, tooDeep } from '../nesting'
import {
  convertsTo,
  goTypeOfKind,
  groupVersionString,
  internalTypeOf,
  isRegistered,
  isSharedMetaKind,
  notRegisteredMessage,
  type GVK,
} from './scheme'

/** The endpoint's kind: what the body must decode into. */
export interface DecodeTarget extends GVK {
  schema: z.ZodType
  /** Other group/versions of the kind the endpoint takes as its own (eviction takes policy/v1beta1 too). */
  accepts?: string[]
  /** A kind without a Go type (a custom resource): decoded as kube decodes unstructured objects, by this codec. */
  custom?: UnstructuredCodec
}

type DocumentOutcome =
  | { ok: true; value: Record<string, unknown>; strict: string[]; gvk: GVK }
  /** `bare`: a message kube gives on its own, not as a decoding error of the kind. */
  | { ok: false; error: string; gvk: GVK | null; bare?: boolean }

/** Kinds we have schemas for, so a body of one of them posted elsewhere fails on its own type first, as in kube. */
const SERVED: [gv: string, schemas: Record<string, z.ZodType>][] = [
  ['v1', { Pod, Service, Namespace, Node, Event, Endpoints, ReplicationController }],
  ['discovery.k8s.io/v1', { EndpointSlice }],
  ['autoscaling/v1', { Scale }],
  ['apps/v1', { Deployment, ReplicaSet }],
]
const servedSchema = (g: GVK) => SERVED.find(([gv]) => gv === groupVersionString(g.group, g.version))?.[1][g.kind]

/** The anonymous struct the meta factory decodes into; its type is part of its error messages. */
const FIND_KIND =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'

/** Go's case folding of a key for a case-insensitive field match (the Kelvin sign folds to K, the long s to S). */
const fold = (key: string) =>
  key.replace(/[a-z\u017f\u212a]/g, (c) => (c === '\u017f' ? 'S' : c === '\u212a' ? 'K' : c.toUpperCase()))

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number' || v instanceof RawNumber) return 'number'
  if (typeof v === 'boolean') return 'bool'
  return Array.isArray(v) ? 'array' : 'object'
}

/** SimpleMetaFactory.Interpret: encoding/json (case-insensitive) into FIND_KIND, then ParseGroupVersion. */
function interpret(doc: unknown): GVK | { error: string } {
  const parseError = (e: string) => ({ error: `couldn't get version/kind; json parse error: ${e}` })
  if (doc === null) return { group: '', version: '', kind: '' }
  if (typeof doc !== 'object' || Array.isArray(doc) || doc instanceof RawNumber) {
    return parseError(`json: cannot unmarshal ${jsonKind(doc)} into Go value of type ${FIND_KIND}`)
  }
  let apiVersion = ''
  let kind = ''
  let saved: string | null = null
  const o = doc as Record<string, unknown>
  for (const key in o) {
    const folded = key === 'apiVersion' || key === 'kind' ? '' : fold(key)
    const field =
      key === 'apiVersion' || key === 'kind'
        ? key
        : folded === 'APIVERSION'
          ? 'apiVersion'
          : folded === 'KIND'
            ? 'kind'
            : null
    if (field === null) continue
    const v = o[key]
    if (typeof v === 'string') {
      if (field === 'kind') kind = v
      else apiVersion = v
    } else if (v !== null) {
      saved ??= `json: cannot unmarshal ${jsonKind(v)} into Go struct field .${field} of type string`
    }
  }
  if (saved) return parseError(saved)
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind }
  const slashes = apiVersion.split('/').length - 1
  if (slashes > 1) return { error: `unexpected GroupVersion string: ${apiVersion}` }
  if (slashes === 0) return { group: '', version: apiVersion, kind }
  const at = apiVersion.indexOf('/')
  return { group: apiVersion.slice(0, at), version: apiVersion.slice(at + 1), kind }
}

/** gvkWithDefaults: what the body leaves out, the endpoint's kind fills in. */
function withDefaults(g: GVK, target: GVK): GVK {
  const out = { ...g }
  if (!out.kind) out.kind = target.kind
  if (!out.version && !out.group) {
    out.group = target.group
    out.version = target.version
  }
  if (!out.version && out.group === target.group) out.version = target.version
  return out
}

/**
 * Decodes a parsed document (changed in place) for `target`. `original` gives the document's text for the one
 * message that quotes it whole.
 */
export function decodeDocument(target: DecodeTarget, doc: unknown, original: () => string): DocumentOutcome {
  const read = interpret(doc)
  if ('error' in read) return { ok: false, error: read.error, gvk: null }
  if (target.custom) return decodeCustom(target, target.custom, read, doc, original)
  const gvk = withDefaults(read, target)
  const fail = (error: string, bare = false): DocumentOutcome => ({ ok: false, error, gvk, bare })
  if (!gvk.version) return fail(`Object 'apiVersion' is missing in '${original()}'`)
  const isTarget =
    (gvk.group === target.group && gvk.version === target.version && gvk.kind === target.kind) ||
    isSharedMetaKind(gvk, target) ||
    (gvk.kind === target.kind &&
      isRegistered(gvk) &&
      (target.accepts?.includes(groupVersionString(gvk.group, gvk.version)) ?? false))
  if (!isTarget && !isRegistered(gvk)) return fail(notRegisteredMessage(gvk))
  const schema = isTarget ? target.schema : servedSchema(gvk)
  const value = (doc ?? {}) as Record<string, unknown>
  let strict: string[] = []
  if (schema) {
    const decoded = goUnmarshal(value, goTypeOf(schema, isTarget ? `v1.${target.kind}` : goTypeOfKind(gvk)))
    if (decoded.error !== null) return fail(decoded.error)
    strict = decoded.strict
    // What the type keeps whole (RawExtension, JSON) may still nest past what the rest of the code can walk.
    if (tooDeep(value)) return fail(TOO_DEEP)
  }
  if (!isTarget) {
    if (convertsTo(gvk, target)) {
      const data = groupVersionString(gvk.group, gvk.version)
      return fail(
        `the API version in the data (${data}) does not match the expected API version (${groupVersionString(target.group, target.version)})`,
        true,
      )
    }
    return fail(`converting (${goTypeOfKind(gvk)}) to (${internalTypeOf(target)}): unknown conversion`)
  }
  return { ok: true, value, strict, gvk }
}

/**
 * A custom resource's body (unstructured.UnstructuredJSONScheme, then the CRD handler's coercion): apiVersion and kind
 * must be given, name the endpoint's group/version (kube's create/update handlers refuse another) and kind, and the
 * codec prunes, defaults and checks the metadata.
 */
function decodeCustom(
  target: DecodeTarget,
  codec: UnstructuredCodec,
  read: GVK,
  doc: unknown,
  original: () => string,
): DocumentOutcome {
  const gvk = read
  const fail = (error: string): DocumentOutcome => ({ ok: false, error, gvk, bare: true })
  if (!gvk.kind) return fail(`Object 'Kind' is missing in '${original()}'`)
  if (!gvk.version) return fail(`Object 'apiVersion' is missing in '${original()}'`)
  if (gvk.group !== target.group || gvk.version !== target.version) {
    const data = groupVersionString(gvk.group, gvk.version)
    return fail(
      `the API version in the data (${data}) does not match the expected API version (${groupVersionString(target.group, target.version)})`,
    )
  }
  if (gvk.kind !== target.kind) return fail(`kind: Invalid value: ${JSON.stringify(gvk.kind)}: must be ${target.kind}`)
  const value = doc as Record<string, unknown>
  // Without a Go type, nothing bounds the depth: the codec's walks and everything after it get at most this.
  if (tooDeep(value)) return { ok: false, error: TOO_DEEP, gvk }
  const decoded = codec.decode(value)
  if ('error' in decoded) return { ok: false, error: decoded.error, gvk }
  return { ok: true, value, strict: decoded.strict, gvk }
}
