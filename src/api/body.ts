// Reading request bodies: size limit (413), accepted media types (415), and the body as the decoder takes it: JSON or
// YAML text, or the object a Kubernetes protobuf body (what kubectl 1.32+ generators send) decodes to.
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import { MAX_BODY_BYTES, type BodyInput } from '../registry/decode'
import { decodeKubeProtobuf } from './protobuf/decode'
import { negotiateInput } from './negotiation'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'

/** The media type without parameters, lowercased; '' when absent. */
export const mediaType = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

async function readBodyBytes(c: Context): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  const buf = await c.req.arrayBuffer()
  if (buf.byteLength > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  return new Uint8Array(buf)
}

const utf8 = (bytes: Uint8Array) => {
  try {
    // A byte order mark stays: Go's JSON decoder refuses it (invalid character 'ï'), and so must we.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new StatusError(statuses.badRequest('the request body is not valid UTF-8'))
  }
}

export async function readBodyText(c: Context): Promise<string> {
  return utf8(await readBodyBytes(c))
}

/** The serializer that reads a create/update body (kube's NegotiateInputSerializer): none named means JSON, 415 else. */
export const objectContentType = (c: Context): string => negotiateInput(c.req.header('content-type') ?? '')

/**
 * The patch type a PATCH names, read as kube's patch handler reads it: the Content-Type up to its first `;` (one at
 * the very start is kept), neither trimmed nor lowercased, matched exactly against the patch types.
 */
export function patchContentType(c: Context): string {
  const header = c.req.header('content-type') ?? ''
  const semi = header.indexOf(';')
  return semi > 0 ? header.slice(0, semi) : header
}

/** A create or update body as the decoder takes it (`prefix` opens protobuf decoding errors). */
export async function readBody(c: Context, prefix: string): Promise<BodyInput> {
  const type = objectContentType(c)
  const bytes = await readBodyBytes(c)
  if (type === PROTOBUF) {
    try {
      return { format: 'object', object: decodeKubeProtobuf(bytes).object }
    } catch (e) {
      throw new StatusError(statuses.badRequest(`${prefix}: ${(e as Error).message}`))
    }
  }
  return { format: type.includes('yaml') ? 'yaml' : 'json', text: utf8(bytes) }
}
