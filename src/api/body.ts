// Reading request bodies: size limit (413), accepted media types (415), then decoding.
import type { Context } from 'hono'
import { statuses, StatusError } from '../registry/status'
import { MAX_BODY_BYTES } from '../registry/decode'

const OBJECT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']

/** The media type without parameters, lowercased; '' when absent. */
export const mediaType = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

export async function readBodyText(c: Context): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  const buf = await c.req.arrayBuffer()
  if (buf.byteLength > MAX_BODY_BYTES) throw new StatusError(statuses.tooLarge('limit is 3145728'))
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf)
  } catch {
    throw new StatusError(statuses.badRequest('the request body is not valid UTF-8'))
  }
}

/** The content type of a create/update body; missing means JSON, as curl users expect. */
export function objectContentType(c: Context): string {
  const t = mediaType(c)
  if (t === '') return 'application/json'
  if (t === 'application/json' || t === 'application/yaml' || t === 'text/yaml' || t === 'application/x-yaml') return t
  if (t === 'application/vnd.kubernetes.protobuf') {
    throw new StatusError(statuses.unsupportedMediaType(['application/json', 'application/yaml']))
  }
  throw new StatusError(statuses.unsupportedMediaType(OBJECT_TYPES.slice(0, 2)))
}
