// Reading request bodies: size limit (413), accepted media types (415), and parsing JSON, YAML or Kubernetes
// protobuf (what kubectl 1.32+ generators send) into a plain object for the schema check.
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import { MAX_BODY_BYTES, parseBodyText, checkTree } from '../registry/decode'
import { decodeKubeProtobuf } from './protobuf/decode'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'
const OBJECT_TYPES = ['application/json', 'application/yaml', PROTOBUF]

/** The media type without parameters, lowercased; '' when absent. */
export const mediaType = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

export async function readBodyBytes(c: Context): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  const buf = await c.req.arrayBuffer()
  if (buf.byteLength > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  return new Uint8Array(buf)
}

const utf8 = (bytes: Uint8Array) => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new StatusError(statuses.badRequest('the request body is not valid UTF-8'))
  }
}

export async function readBodyText(c: Context): Promise<string> {
  return utf8(await readBodyBytes(c))
}

/** The content type of a create/update body; missing means JSON, as curl users expect. */
export function objectContentType(c: Context): string {
  const t = mediaType(c)
  if (t === '') return 'application/json'
  if (t === 'application/json' || t === 'application/yaml' || t === 'text/yaml' || t === 'application/x-yaml' || t === PROTOBUF) return t
  throw new StatusError(statuses.unsupportedMediaType(OBJECT_TYPES))
}

/** A parsed object body: the value, and the JSON text when there is one (scanned for duplicate keys). */
export interface ParsedBody {
  raw: unknown
  text: string | null
}

/** Reads and parses an object body; `prefix` opens decoding errors (`Pod in version "v1" cannot be handled as a Pod`). */
export async function readObjectBody(c: Context, prefix: string): Promise<ParsedBody> {
  const type = objectContentType(c)
  const bytes = await readBodyBytes(c)
  if (type === PROTOBUF) {
    let decoded: ReturnType<typeof decodeKubeProtobuf>
    try {
      decoded = decodeKubeProtobuf(bytes)
    } catch (e) {
      throw new StatusError(statuses.badRequest(`${prefix}: ${(e as Error).message}`))
    }
    const bad = checkTree(decoded.object)
    if (bad) throw new StatusError(statuses.badRequest(`${prefix}: ${bad}`))
    return { raw: decoded.object, text: null }
  }
  const text = utf8(bytes)
  const raw = parseBodyText(text, type, prefix)
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new StatusError(statuses.badRequest(`${prefix}: json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw} into Go value of type struct`))
  }
  return { raw, text: type.includes('yaml') ? null : text }
}
