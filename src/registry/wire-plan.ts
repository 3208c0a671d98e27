// Encoding plans: each wire shape (a zod schema or an order table of wire-order.ts) compiled once into what the
// JSON writer needs (field order, which values are Go maps, where an embedded object picks its own kind), and the
// check that a value already is in its plan's order, which lets the native JSON.stringify write it.
import { element, field, fieldNames, isOpaque, node, type Node } from './schema-walk'
import { shapeOfKind, type Shape } from './wire-order'

export const STRUCT = 0
export const MAP = 1
export const ARRAY = 2
export const OBJECT = 3

export interface StructPlan {
  t: typeof STRUCT
  keys: string[]
  /** `"key":` and `"key": `, encoded once. */
  heads: string[]
  prettyHeads: string[]
  plans: Plan[]
  index: Map<string, number>
}
interface MapPlan {
  t: typeof MAP
  value: Plan
}
interface ArrayPlan {
  t: typeof ARRAY
  item: Plan
}
/** An embedded runtime.Object: the value's own apiVersion and kind pick its plan. */
interface ObjectPlan {
  t: typeof OBJECT
}
/** How to write a value; null: as it is (leaves, raw JSON, arrays of leaves, kinds we do not know). */
export type Plan = StructPlan | MapPlan | ArrayPlan | ObjectPlan | null

const plans = new Map<unknown, Plan>()
const OBJECT_PLAN: ObjectPlan = { t: OBJECT }

/** The plan of a top-level body, by its apiVersion and kind. */
export function planOfValue(v: unknown): Plan {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null
  const o = v as { apiVersion?: unknown; kind?: unknown }
  const shape = shapeOfKind(o.apiVersion, o.kind)
  return shape === undefined ? null : planOf(shape)
}

export function planOf(shape: Shape): Plan {
  if (shape === null) return null
  if (shape === 'object') return OBJECT_PLAN
  // Every body asks for its kind's plan: a schema met before is found without walking its wrappers again.
  const cached = plans.get(shape)
  if (cached !== undefined) return cached
  if ('_zod' in shape) return remember(shape, planOfNode(node(shape)))
  if ('struct' in shape) {
    const p = struct(shape.struct.map((f) => (typeof f === 'string' ? f : f[0])))
    plans.set(shape, p)
    p.plans = shape.struct.map((f) => (typeof f === 'string' ? null : planOf(f[1])))
    return p
  }
  if ('array' in shape) return remember(shape, arrayOf(planOf(shape.array)))
  return remember(shape, { t: MAP, value: planOf(shape.map) })
}

function planOfNode(n: Node | null): Plan {
  if (!n) return null
  const cached = plans.get(n.schema)
  if (cached !== undefined) return cached
  if (n.kind === 'object') {
    const keys = fieldNames(n)
    const p = struct(keys)
    // Set before the fields are compiled: a recursive schema meets itself again.
    plans.set(n.schema, p)
    p.plans = keys.map((k) => planOfNode(field(n, k)))
    return p
  }
  if (n.kind === 'array') return remember(n.schema, arrayOf(planOfNode(element(n))))
  if (n.kind === 'record') {
    const value = field(n, '')
    // A map of arbitrary JSON is raw JSON in Go (FieldsV1 and the like), written as it was stored.
    return remember(n.schema, value && isOpaque(value) ? null : { t: MAP, value: planOfNode(value) })
  }
  return null
}

function struct(keys: string[]): StructPlan {
  return {
    t: STRUCT,
    keys,
    heads: keys.map((k) => JSON.stringify(k) + ':'),
    prettyHeads: keys.map((k) => JSON.stringify(k) + ': '),
    plans: [],
    index: new Map(keys.map((k, i) => [k, i])),
  }
}

/** An array of leaves needs nothing from us: the native encoder writes it. */
const arrayOf = (item: Plan): Plan => (item === null ? null : { t: ARRAY, item })

function remember(key: unknown, p: Plan): Plan {
  plans.set(key, p)
  return p
}

const SURROGATE = /[\ud800-\udfff]/

/**
 * Whether JSON.stringify writes this value exactly as the plan would: every struct's fields known and in order,
 * every map's keys in Go's order. Objects read back from storage are (stored JSON is written in Go's order), and
 * checking costs about a third of what the native encoder does, an eighth of writing the value ourselves.
 */
export function inPlanOrder(v: unknown, p: Plan): boolean {
  if (typeof v !== 'object' || v === null || p === null) return true
  if (Array.isArray(v)) {
    if (p.t !== ARRAY) return true
    for (let i = 0; i < v.length; i++) if (!inPlanOrder(v[i], p.item)) return false
    return true
  }
  const o = v as Record<string, unknown>
  switch (p.t) {
    case STRUCT: {
      let next = 0
      for (const k in o) {
        const j = p.index.get(k)
        if (j === undefined || j < next) return false
        next = j + 1
        if (!inPlanOrder(o[k], p.plans[j]!)) return false
      }
      return true
    }
    case MAP: {
      // Integer-like keys enumerate first in JS ("9" before "10"), so such a map fails here and goes the slow way.
      let prev: string | null = null
      for (const k in o) {
        if ((prev !== null && !(prev < k)) || SURROGATE.test(k)) return false
        prev = k
        if (!inPlanOrder(o[k], p.value)) return false
      }
      return true
    }
    case OBJECT:
      return inPlanOrder(v, planOfValue(v))
    default:
      return true
  }
}
