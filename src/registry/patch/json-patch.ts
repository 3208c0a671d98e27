// JSON patch (RFC 6902): `application/json-patch+json`, applied as kube's evanphx/json-patch v4 (Patch.Apply)
// applies it: its pointer walk, negative indices, a replace that may add a member, a copy of a missing member that
// copies null, the 3 MiB cap on what copies add (kube's JSONPatchMaxCopyBytes), and "Unexpected kind" for an
// operation it does not know. Every failure is a PatchError of code 422, which kube's patcher answers generically.
import { isObject } from './merge-patch'
import { PatchError } from './patch-error'
import { own, setOwn } from '../own-fields'
import { copyValue, type Json } from './patch-value'

/** kube-apiserver's --json-patch-max-copy-bytes default (evanphx AccumulatedCopySizeLimit). */
const MAX_COPY_BYTES = 3 * 1024 * 1024

type Container = Record<string, Json> | Json[]
type Op = Record<string, Json> | null

const fail = (message: string) => new PatchError(message)

/** Operation.Kind: the op when it decodes as a string, else "unknown". */
const kindOf = (op: Op) => (op && typeof own(op, 'op') === 'string' ? (op.op as string) : 'unknown')

/** A string member (path, from): absent or null is ErrMissing, another type a decoding error. */
function member(op: Op, name: 'path' | 'from', what: string): string {
  const v = op ? own(op, name) : undefined
  if (typeof v === 'string') return v
  if (v === undefined || v === null) throw fail(`${what}: missing value`)
  throw fail(`${what}: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type string`)
}

/** Operation.value: the value member (JSON null kept), or undefined when the operation has none. */
const opValue = (op: Op): Json | undefined => (op ? own(op, 'value') : undefined)

/** RFC 6901 decoding in one pass, as strings.NewReplacer("~1", "/", "~0", "~") does it. */
const decodeKey = (k: string) => k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'))

/** strconv.Atoi: an optional sign and decimal digits that fit an int64. */
function atoi(s: string): number | null {
  if (!/^[+-]?\d+$/.test(s)) return null
  const n = BigInt(s)
  return n >= -(2n ** 63n) && n < 2n ** 63n ? Number(n) : null
}

const invalidIndex = (i: number) => fail(`Unable to access invalid index: ${i}: invalid index referenced`)

/** partialArray's index for get, set and remove: negative counts from the end; past the end is invalid. */
function index(ary: Json[], key: string): number {
  const i = atoi(key)
  if (i === null) throw fail(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`)
  if (i >= ary.length || i < -ary.length) throw invalidIndex(i)
  return i < 0 ? i + ary.length : i
}

/** findObject: the container the pointer's last token is in, and that token; null when the way there is missing. */
function findObject(doc: Container, path: string): [Container, string] | null {
  const split = path.split('/')
  if (split.length < 2) return null
  let con: Container = doc
  for (const part of split.slice(1, -1)) {
    let next: Json | undefined
    if (Array.isArray(con)) {
      const i = atoi(decodeKey(part))
      if (i === null || i >= con.length || i < -con.length) return null
      next = con[i < 0 ? i + con.length : i]
    } else next = own(con, decodeKey(part))
    if (!Array.isArray(next) && !isObject(next)) return null
    con = next
  }
  return [con, decodeKey(split[split.length - 1]!)]
}

/** A member or element; undefined for a missing member (a null member reads as missing, as Go's nil node). */
function get(con: Container, key: string): Json | undefined {
  if (Array.isArray(con)) return con[index(con, key)]
  const v = own(con, key)
  return v === null ? undefined : v
}

function add(con: Container, key: string, value: Json): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value)
    return
  }
  if (key === '-') {
    con.push(value)
    return
  }
  const i = atoi(key)
  if (i === null)
    throw fail(
      `value was not a proper array index: '${key}': strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`,
    )
  const size = con.length + 1
  if (i >= size || i < -size) throw invalidIndex(i)
  con.splice(i < 0 ? i + size : i, 0, value)
}

function remove(con: Container, key: string): void {
  if (Array.isArray(con)) con.splice(index(con, key), 1)
  else if (Object.hasOwn(con, key)) delete con[key]
  else throw fail(`Unable to remove nonexistent key: ${key}: missing value`)
}

/** lazyNode.equal, over decoded values (Go compares scalars by their compacted bytes). */
function equal(a: Json | undefined, b: Json | undefined): boolean {
  const pending: [Json | undefined, Json | undefined][] = [[a, b]]
  while (pending.length > 0) {
    const [x, y] = pending.pop()!
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      x.forEach((v, i) => pending.push([v, y[i]]))
    } else if (isObject(x)) {
      if (!isObject(y)) return false
      const keys = Object.keys(x)
      if (keys.length !== Object.keys(y).length) return false
      for (const k of keys) {
        if (!Object.hasOwn(y, k)) return false
        pending.push([x[k], y[k]])
      }
    } else if (x !== y) return false
  }
  return true
}

/** The patched document; `doc` is left as it was (a failed patch changes nothing). */
export function jsonPatch(doc: Json, patch: unknown): Json {
  if (!Array.isArray(patch))
    throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', 400)
  if (!Array.isArray(doc) && !isObject(doc)) throw fail('Invalid JSON Document')
  let root = copyValue(doc) as Container
  let copied = 0
  for (const op of patch as Op[]) {
    const kind = kindOf(op)
    switch (kind) {
      case 'add': {
        const path = member(op, 'path', 'add operation failed to decode path')
        const at = findObject(root, path)
        if (!at) throw fail(`add operation does not apply: doc is missing path: "${path}": missing value`)
        add(...at, copyValue(opValue(op) ?? null)!)
        break
      }
      case 'remove': {
        const path = member(op, 'path', 'remove operation failed to decode path')
        const at = findObject(root, path)
        if (!at) throw fail(`remove operation does not apply: doc is missing path: "${path}": missing value`)
        remove(...at)
        break
      }
      case 'replace': {
        const path = member(op, 'path', 'replace operation failed to decode path')
        const value = opValue(op) ?? null
        if (path === '') {
          if (!Array.isArray(value) && !isObject(value)) throw fail('replace operation value must be object or array')
          root = copyValue(value) as Container
          break
        }
        const at = findObject(root, path)
        if (!at) throw fail(`replace operation does not apply: doc is missing path: ${path}: missing value`)
        // partialDoc.get finds nothing wrong with a missing member, so replace adds it; an array index must exist.
        if (Array.isArray(at[0])) at[0][index(at[0], at[1])] = copyValue(value)!
        else setOwn(at[0], at[1], copyValue(value)!)
        break
      }
      case 'move': {
        const from = member(op, 'from', 'move operation failed to decode from')
        const source = findObject(root, from)
        if (!source) throw fail(`move operation does not apply: doc is missing from path: ${from}: missing value`)
        const value = get(...source) ?? null
        remove(...source)
        const path = member(op, 'path', 'move operation failed to decode path')
        const at = findObject(root, path)
        if (!at) throw fail(`move operation does not apply: doc is missing destination path: ${path}: missing value`)
        add(...at, value)
        break
      }
      case 'copy': {
        const from = member(op, 'from', 'copy operation failed to decode from')
        const source = findObject(root, from)
        if (!source) throw fail(`copy operation does not apply: doc is missing from path: ${from}: missing value`)
        const value = get(...source) ?? null
        const path = member(op, 'path', 'copy operation failed to decode path')
        const at = findObject(root, path)
        if (!at) throw fail(`copy operation does not apply: doc is missing destination path: ${path}: missing value`)
        copied += JSON.stringify(value).length
        if (copied > MAX_COPY_BYTES) {
          throw fail(
            `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_COPY_BYTES}`,
          )
        }
        add(...at, copyValue(value)!)
        break
      }
      case 'test': {
        const path = member(op, 'path', 'test operation failed to decode path')
        const expected = opValue(op)
        if (path === '') {
          if (equal(root, expected)) break
          throw fail(`testing value ${path} failed: test failed`)
        }
        const at = findObject(root, path)
        if (!at) throw fail(`test operation does not apply: is missing path: ${path}: missing value`)
        const actual = get(...at)
        // A missing (or null) member passes against a null value; a value against no value fails.
        const passes = actual === undefined ? expected === null : expected !== undefined && equal(actual, expected)
        if (!passes) throw fail(`testing value ${path} failed: test failed`)
        break
      }
      default:
        throw fail(`Unexpected kind: ${kind}`)
    }
  }
  return root
}
