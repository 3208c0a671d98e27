// The autoscaling/v1 round-trip annotations read as kube's conversion reads them (pkg/apis/autoscaling/v1/
// conversion.go, release-1.33): encoding/json's Unmarshal into []v1.MetricSpec, []v1.MetricStatus,
// []v1.HorizontalPodAutoscalerCondition and the internal HorizontalPodAutoscalerBehavior. Since kube 1.18 (#89963)
// any error there (bad syntax, a type mismatch anywhere inside, a quantity or time that does not parse) makes the
// conversion ignore that annotation, which the request still drops; so the question asked here is only whether
// Unmarshal succeeds, and what it decoded. encoding/json is lenient where kube's body decoder is not: keys match
// their field case-insensitively and unknown keys are skipped.
import { parseGoJson } from '../decode'
import { fitsInt, RawNumber } from '../decoding/go-json-numbers'
import { goTimeCanonical, goTimeError } from '../decoding/go-time'
import { quantityError } from '../../schema/quantity'

/** The Go types the annotations decode into; pointers and values differ only in what a null leaves (both: nothing). */
export type GoType =
  | 'string'
  | 'int32'
  | 'quantity'
  | 'time'
  | { slice: GoType }
  | { map: GoType }
  | { struct: Record<string, GoType> }

const ref: GoType = { struct: { kind: 'string', name: 'string', apiVersion: 'string' } }
const selector: GoType = {
  struct: {
    matchLabels: { map: 'string' },
    matchExpressions: { slice: { struct: { key: 'string', operator: 'string', values: { slice: 'string' } } } },
  },
}

/** []v1.MetricSpec (k8s.io/api/autoscaling/v1). */
export const METRIC_SPECS: GoType = {
  slice: {
    struct: {
      type: 'string',
      object: {
        struct: {
          target: ref,
          metricName: 'string',
          targetValue: 'quantity',
          selector,
          averageValue: 'quantity',
        },
      },
      pods: { struct: { metricName: 'string', targetAverageValue: 'quantity', selector } },
      resource: { struct: { name: 'string', targetAverageUtilization: 'int32', targetAverageValue: 'quantity' } },
      containerResource: {
        struct: {
          name: 'string',
          targetAverageUtilization: 'int32',
          targetAverageValue: 'quantity',
          container: 'string',
        },
      },
      external: {
        struct: {
          metricName: 'string',
          metricSelector: selector,
          targetValue: 'quantity',
          targetAverageValue: 'quantity',
        },
      },
    },
  },
}

/** []v1.MetricStatus. */
export const METRIC_STATUSES: GoType = {
  slice: {
    struct: {
      type: 'string',
      object: {
        struct: {
          target: ref,
          metricName: 'string',
          currentValue: 'quantity',
          selector,
          averageValue: 'quantity',
        },
      },
      pods: { struct: { metricName: 'string', currentAverageValue: 'quantity', selector } },
      resource: { struct: { name: 'string', currentAverageUtilization: 'int32', currentAverageValue: 'quantity' } },
      containerResource: {
        struct: {
          name: 'string',
          currentAverageUtilization: 'int32',
          currentAverageValue: 'quantity',
          container: 'string',
        },
      },
      external: {
        struct: {
          metricName: 'string',
          metricSelector: selector,
          currentValue: 'quantity',
          currentAverageValue: 'quantity',
        },
      },
    },
  },
}

/** []v1.HorizontalPodAutoscalerCondition. */
export const CONDITIONS: GoType = {
  slice: {
    struct: { type: 'string', status: 'string', lastTransitionTime: 'time', reason: 'string', message: 'string' },
  },
}

/** The internal autoscaling.HorizontalPodAutoscalerBehavior: no json tags, so its keys are the Go field names. */
const rules: GoType = {
  struct: {
    StabilizationWindowSeconds: 'int32',
    SelectPolicy: 'string',
    Policies: { slice: { struct: { Type: 'string', Value: 'int32', PeriodSeconds: 'int32' } } },
    Tolerance: 'quantity',
  },
}
export const BEHAVIOR: GoType = { struct: { ScaleUp: rules, ScaleDown: rules } }

/** Thrown at the first error: Unmarshal would return one, and the conversion then ignores the whole annotation. */
class Mismatch extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber)

/** encoding/json's foldName: keys equal under Unicode simple folding (the Kelvin sign and long s included). */
const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/\u212a/g, 'k')
    .replace(/\u017f/g, 's')

/** The field a key names: the exact JSON name, else one equal under folding. */
function fieldFor(fields: Record<string, GoType>, key: string): string | undefined {
  if (Object.hasOwn(fields, key)) return key
  const folded = fold(key)
  return Object.keys(fields).find((f) => fold(f) === folded)
}

/** The decoded value (keys under their fields' names, unknown keys gone), or a Mismatch thrown. */
function decode(v: unknown, t: GoType, into: unknown): unknown {
  // A null leaves a pointer nil and a value as it was; a null slice element is the element's zero value.
  if (v === null) return into === undefined ? null : into
  if (t === 'string') {
    if (typeof v !== 'string') throw new Mismatch()
    return v
  }
  if (t === 'int32') {
    if (!(typeof v === 'number' || v instanceof RawNumber) || !fitsInt(v, 32)) throw new Mismatch()
    return v instanceof RawNumber ? v.value : v
  }
  if (t === 'quantity') {
    // Quantity.UnmarshalJSON parses the literal, quotes stripped, whatever JSON it is.
    const text = typeof v === 'string' ? v : v instanceof RawNumber ? v.source : JSON.stringify(v)
    if (quantityError(text.trim()) !== null) throw new Mismatch()
    return text.trim()
  }
  if (t === 'time') {
    // Time.UnmarshalJSON: a JSON string (else json's type error), then time.Parse with RFC 3339.
    if (typeof v !== 'string' || goTimeError(v, 'RFC3339') !== null) throw new Mismatch()
    return goTimeCanonical(v, 'RFC3339')
  }
  if ('slice' in t) {
    if (!Array.isArray(v)) throw new Mismatch()
    return v.map((x) => (x === null ? zero(t.slice) : decode(x, t.slice, undefined)))
  }
  if (!isObject(v)) throw new Mismatch()
  // A struct or map met twice (a key repeated, in any case) is decoded into again, not replaced.
  const out: Record<string, unknown> = isObject(into) ? into : {}
  if ('map' in t) {
    for (const [k, x] of Object.entries(v)) out[k] = decode(x, t.map, out[k])
    return out
  }
  for (const [k, x] of Object.entries(v)) {
    const f = fieldFor(t.struct, k)
    if (f !== undefined) out[f] = decode(x, t.struct[f]!, out[f])
  }
  return out
}

const zero = (t: GoType): unknown =>
  t === 'string' ? '' : t === 'int32' ? 0 : typeof t === 'object' && 'struct' in t ? {} : null

/** The annotation's text as json.Unmarshal into `type` decodes it, or undefined when that returns an error. */
export function unmarshalAnnotation(text: string, type: GoType): unknown {
  const parsed = parseGoJson(text)
  if ('error' in parsed) return undefined
  try {
    return decode(parsed.value, type, undefined)
  } catch (e) {
    if (e instanceof Mismatch) return undefined
    throw e
  }
}
