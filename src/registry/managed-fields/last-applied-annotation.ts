// kubectl's last-applied-configuration annotation: its text as kubectl and kube-apiserver write it (Go's encoding of
// an unstructured object) and its place among the annotations, whose total size kube caps.
import type { KubeObject } from '../../schema/meta'

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/** kube's TotalAnnotationSizeLimitB: keys and values together, in bytes. */
const ANNOTATIONS_SIZE_LIMIT = 256 * 1024

/** The annotation's text, or undefined when it is absent or empty (kube treats both alike). */
export function lastAppliedOf(obj: KubeObject): string | undefined {
  const v = obj.metadata.annotations?.[LAST_APPLIED]
  return v ? v : undefined
}

/**
 * An applied configuration as the annotation holds it: without the annotation itself (an emptied annotations map stays
 * as an empty map, as Go's unstructured accessors leave it), encoded by Go's json.Encoder.
 */
export function lastAppliedText(applied: KubeObject): string {
  const copy = { ...applied, metadata: { ...applied.metadata } }
  const annotations = copy.metadata.annotations
  if (annotations) {
    const rest = { ...annotations }
    delete rest[LAST_APPLIED]
    copy.metadata.annotations = rest
  }
  return goJson(copy) + '\n'
}

/** Sets the annotation (in place); when the annotations would outgrow kube's limit it is dropped instead. */
export function setLastApplied(obj: KubeObject, text: string): void {
  const annotations: Record<string, string> = { ...obj.metadata.annotations, [LAST_APPLIED]: text }
  if (annotationsSize(annotations) > ANNOTATIONS_SIZE_LIMIT) delete annotations[LAST_APPLIED]
  if (Object.keys(annotations).length > 0) obj.metadata.annotations = annotations
  else delete obj.metadata.annotations
}

const utf8 = new TextEncoder()

function annotationsSize(annotations: Record<string, string>): number {
  let n = 0
  for (const [k, v] of Object.entries(annotations)) n += utf8.encode(k).length + utf8.encode(v).length
  return n
}

/**
 * Go's encoding/json of a map[string]interface{}: keys in byte order, '<', '>', '&', U+2028 and U+2029 escaped. The
 * rest (number formatting, the other escapes) is what JSON.stringify already does the same way. Objects are written
 * key by key: a JavaScript object would put integer-like keys first whatever order they were added in.
 */
function goJson(v: unknown): string {
  return encode(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function encode(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`
  if (v === null || typeof v !== 'object') return JSON.stringify(v)
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort(byCodePoint)
  return `{${keys.map((k) => `${JSON.stringify(k)}:${encode(o[k])}`).join(',')}}`
}

/** UTF-8 byte order is code point order; JavaScript's default sort compares UTF-16 units, which differs above U+FFFF. */
function byCodePoint(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}
