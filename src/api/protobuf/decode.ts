// Kubernetes protobuf request bodies (application/vnd.kubernetes.protobuf) to the JSON object a Go client would
// have sent for the same value: the 'k8s\0' + runtime.Unknown envelope, then the object message by descriptor.
import { messageFields, objectMessage, type Field } from './messages'
import { WIRE_LEN, WIRE_VARINT, WireReader } from './wire'

interface DecodedObject {
  apiVersion: string
  kind: string
  object: Record<string, unknown>
}

type Obj = Record<string, unknown>

const MAGIC = [0x6b, 0x38, 0x73, 0x00] // "k8s\0"
const PROTOBUF = 'application/vnd.kubernetes.protobuf'
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The JSON path being decoded, kept so an error can say where it happened. */
type Path = (string | number)[]

/**
 * Decodes one protobuf-encoded Kubernetes object. The result's `object` carries apiVersion and kind first, then the
 * fields present on the wire, shaped and named as in the JSON API. Throws a plain Error on malformed bytes, an
 * envelope we cannot read (compressed, or not protobuf inside), or a kind with no descriptor.
 */
export function decodeKubeProtobuf(bytes: Uint8Array): DecodedObject {
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new Error('protobuf: body does not start with the k8s\\0 magic of a Kubernetes protobuf object')
  }
  const env = readEnvelope(new WireReader(bytes, MAGIC.length))
  const { apiVersion, kind } = env
  if (!apiVersion || !kind) throw new Error('protobuf: the object envelope names no apiVersion or kind')
  if (env.contentEncoding)
    throw new Error(`protobuf: unsupported content encoding ${JSON.stringify(env.contentEncoding)}`)
  if (env.contentType && env.contentType !== PROTOBUF) {
    throw new Error(`protobuf: unsupported inner content type ${JSON.stringify(env.contentType)}`)
  }
  const message = objectMessage(apiVersion, kind)
  if (!message) throw new Error(`protobuf: cannot decode kind ${kind} of apiVersion ${apiVersion}`)
  const path: Path = []
  try {
    const body = readMessage(new WireReader(env.raw), message, path)
    return { apiVersion, kind, object: { apiVersion, kind, ...body } }
  } catch (e) {
    const where = path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '')
    throw new Error(`protobuf: ${apiVersion} ${kind}${where ? ` at ${where}` : ''}: ${(e as Error).message}`)
  }
}

interface Envelope {
  apiVersion: string
  kind: string
  raw: Uint8Array
  contentEncoding: string
  contentType: string
}

/** runtime.Unknown: typeMeta=1 (apiVersion=1, kind=2), raw=2, contentEncoding=3, contentType=4. */
function readEnvelope(r: WireReader): Envelope {
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' }
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field > 4) {
      r.skip(wire)
      continue
    }
    expectWire(wire, WIRE_LEN, `envelope field ${field}`)
    if (field === 1) {
      const t = r.sub()
      while (!t.done) {
        const tag = t.tag()
        if (tag.field === 1 || tag.field === 2) {
          expectWire(tag.wire, WIRE_LEN, 'typeMeta')
          env[tag.field === 1 ? 'apiVersion' : 'kind'] = text(t.bytes())
        } else t.skip(tag.wire)
      }
    } else if (field === 2) env.raw = r.bytes()
    else if (field === 3) env.contentEncoding = text(r.bytes())
    else env.contentType = text(r.bytes())
  }
  return env
}

function expectWire(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new Error(`${what}: wire type ${actual}, expected ${expected}`)
}

function text(b: Uint8Array): string {
  try {
    return utf8.decode(b)
  } catch {
    throw new Error('string is not valid UTF-8')
  }
}

function readMessage(r: WireReader, message: string, path: Path): Obj {
  const fields = messageFields(message)
  const out: Obj = {}
  while (!r.done) {
    const { field, wire } = r.tag()
    const f = fields.get(field)
    // Unknown numbers are skipped, as Go does: newer clients may send fields this table does not know yet.
    if (!f) r.skip(wire)
    else if (f.inline) {
      expectWire(wire, WIRE_LEN, message)
      Object.assign(out, readMessage(r.sub(), f.type, path))
    } else {
      path.push(f.json)
      readField(r, f, wire, out, path)
      path.pop()
    }
  }
  return out
}

function readField(r: WireReader, f: Field, wire: number, out: Obj, path: Path): void {
  if (f.map) {
    expectWire(wire, WIRE_LEN, 'map entry')
    const [k, v] = readMapEntry(r.sub(), f.type)
    const map = (out[f.json] ??= {}) as Obj
    // A label key may be any string, "__proto__" included: define it as data, as JSON.parse would.
    Object.defineProperty(map, k, { value: v, enumerable: true, writable: true, configurable: true })
    return
  }
  if (f.repeated) {
    const list = (out[f.json] ??= []) as unknown[]
    if (wire === WIRE_LEN && (f.type === 'int32' || f.type === 'int64' || f.type === 'bool')) {
      // Packed encoding: proto2 writers may use it for repeated numbers; decoders must accept both forms.
      const p = r.sub()
      while (!p.done) list.push(readScalar(p, f.type, WIRE_VARINT))
      return
    }
    path.push(list.length)
    list.push(readValue(r, f.type, wire, path))
    path.pop()
    return
  }
  const v = readValue(r, f.type, wire, path)
  const prev = out[f.json]
  // Only plain scalars are omitempty-dropped: Go's JSON always writes struct values, so an IntOrString 0 or a
  // Quantity "0" that arrived on the wire stays.
  if (v === undefined || (!f.keep && SCALARS.has(f.type) && isZeroScalar(v))) delete out[f.json]
  // A message field seen twice is merged (protobuf semantics); anything else: the last one wins.
  else if (isObj(prev) && isObj(v)) Object.assign(prev, v)
  else out[f.json] = v
}

const SCALARS = new Set(['string', 'bytes', 'int32', 'int64', 'bool'])
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isZeroScalar = (v: unknown) => v === '' || v === 0 || v === false

/** One value of a field's type; undefined means "null in JSON" (a zero Time), which is left out. */
function readValue(r: WireReader, type: string, wire: number, path: Path): unknown {
  switch (type) {
    case 'string':
    case 'bytes':
    case 'int32':
    case 'int64':
    case 'bool':
      return readScalar(r, type, wire)
    case 'Quantity':
      expectWire(wire, WIRE_LEN, type)
      return readQuantity(r.sub())
    case 'IntOrString':
      expectWire(wire, WIRE_LEN, type)
      return readIntOrString(r.sub())
    case 'Time':
    case 'MicroTime':
      expectWire(wire, WIRE_LEN, type)
      return readTime(r.sub(), type === 'MicroTime')
    case 'FieldsV1':
      expectWire(wire, WIRE_LEN, type)
      return readFieldsV1(r.sub())
    default:
      expectWire(wire, WIRE_LEN, type)
      return readMessage(r.sub(), type, path)
  }
}

function readScalar(r: WireReader, type: string, wire: number): string | number | boolean {
  if (type === 'string' || type === 'bytes') {
    expectWire(wire, WIRE_LEN, type)
    const b = r.bytes()
    return type === 'string' ? text(b) : base64(b)
  }
  expectWire(wire, WIRE_VARINT, type)
  return type === 'int32' ? r.int32() : type === 'int64' ? r.int64() : r.bool()
}

/** A map entry message: key=1 (string), value=2. Absent parts are their zero value, as in Go. */
function readMapEntry(r: WireReader, valueType: string): [string, unknown] {
  let key = ''
  let value: unknown = valueType === 'Quantity' ? '0' : ''
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field === 1) key = readScalar(r, 'string', wire) as string
    else if (field === 2 && valueType === 'Quantity') {
      expectWire(wire, WIRE_LEN, 'Quantity')
      value = readQuantity(r.sub())
    } else if (field === 2) value = readScalar(r, valueType, wire)
    else r.skip(wire)
  }
  return [key, value]
}

/** resource.Quantity travels as its canonical string (field 1); the JSON form is that same string. */
function readQuantity(r: WireReader): string {
  let s = '0'
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field === 1) s = readScalar(r, 'string', wire) as string
    else r.skip(wire)
  }
  return s
}

/** intstr.IntOrString: type=1 (0 int, 1 string), intVal=2, strVal=3; JSON is the bare number or string. */
function readIntOrString(r: WireReader): number | string {
  let kind = 0
  let int = 0
  let str = ''
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field === 1) kind = readScalar(r, 'int64', wire) as number
    else if (field === 2) int = readScalar(r, 'int32', wire) as number
    else if (field === 3) str = readScalar(r, 'string', wire) as string
    else r.skip(wire)
  }
  return kind === 1 ? str : int
}

// Go's zero time.Time (0001-01-01T00:00:00Z) marshals to JSON null, and so to nothing here.
const GO_ZERO_SECONDS = -62135596800

/** metav1.Time / MicroTime: seconds=1, nanos=2. Time is RFC 3339 to the second, MicroTime to the microsecond. */
function readTime(r: WireReader, micro: boolean): string | undefined {
  if (r.done) return undefined // Go writes a zero Time as an empty message
  let seconds = 0
  let nanos = 0
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field === 1) seconds = readScalar(r, 'int64', wire) as number
    else if (field === 2) nanos = readScalar(r, 'int32', wire) as number
    else r.skip(wire)
  }
  // time.Unix normalises nanos outside [0, 1e9) into the seconds.
  seconds += Math.floor(nanos / 1e9)
  nanos = ((nanos % 1e9) + 1e9) % 1e9
  if (seconds === GO_ZERO_SECONDS && nanos === 0) return undefined
  const d = new Date(seconds * 1000)
  const year = d.getUTCFullYear()
  if (!Number.isFinite(d.getTime()) || year < 1 || year > 9999)
    throw new Error(`time ${seconds}s is outside years 1-9999`)
  const iso = d.toISOString().slice(0, 19) // YYYY-MM-DDTHH:MM:SS
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`
}

/** metav1.FieldsV1: Raw=1 holds the managed-fields set as JSON text, which is what its JSON form is. */
function readFieldsV1(r: WireReader): unknown {
  let raw: Uint8Array | undefined
  while (!r.done) {
    const { field, wire } = r.tag()
    if (field === 1) {
      expectWire(wire, WIRE_LEN, 'FieldsV1.Raw')
      raw = r.bytes()
    } else r.skip(wire)
  }
  if (!raw || raw.length === 0) return undefined
  try {
    return JSON.parse(text(raw)) as unknown
  } catch (e) {
    throw new Error(`fieldsV1 is not JSON: ${(e as Error).message}`)
  }
}

function base64(b: Uint8Array): string {
  let s = ''
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000))
  return btoa(s)
}
