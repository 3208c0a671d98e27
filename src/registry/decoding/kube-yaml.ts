// Reading YAML as kube-apiserver reads it: sigs.k8s.io/yaml's YAMLToJSON over go-yaml v2, a YAML 1.1 reader. Plain
// scalars resolve as go-yaml v2's resolve() resolves them (yes/no/on/off/y/n are bools, 0644 is octal, 0x1F hex,
// 1_000 an int, `<<` merges), not as YAML 1.2's core schema; timestamps and sexagesimals stay strings (v2 decodes a
// timestamp into interface{} as its text, and has no base 60). Map keys become JSON's strings as YAMLToJSON makes
// them. Used for every YAML body: objects, apply patches, the audit policy.
import { parse, type ScalarTag, type Tags } from 'yaml'
import { RawNumber } from './go-json-numbers'

type Resolved =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'str' }

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL'])
const TRUES = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'])
const FALSES = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'])
const INF = Number.POSITIVE_INFINITY
const SPECIAL_FLOATS = new Map<string, number>([
  ...['.nan', '.NaN', '.NAN'].map((s): [string, number] => [s, Number.NaN]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s): [string, number] => [s, INF]),
  ...['-.inf', '-.Inf', '-.INF'].map((s): [string, number] => [s, -INF]),
])
/** go-yaml v2's yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/
const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const
const UINT64_MAX = 2n ** 64n - 1n

/** strconv.ParseInt/ParseUint with base 0: an optional sign, then 0x, 0b, 0o, a leading 0 (octal) or decimal. */
function parseBase0(s: string, signed: boolean): bigint | null {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s)
  if (!m || (!signed && m[1] !== '')) return null
  const body = m[2]!
  const digits = /^0[0-7]+$/.test(body) ? `0o${body.slice(1)}` : body.toLowerCase()
  const v = m[1] === '-' ? -BigInt(digits) : BigInt(digits)
  if (signed ? v < INT64[0] || v > INT64[1] : v > UINT64_MAX) return null
  return v
}

/** go-yaml v2's resolve() of a plain scalar, for a value decoded into interface{}. */
function goResolve(s: string): Resolved {
  if (NULLS.has(s)) return { kind: 'null' }
  if (TRUES.has(s)) return { kind: 'bool', value: true }
  if (FALSES.has(s)) return { kind: 'bool', value: false }
  const special = SPECIAL_FLOATS.get(s)
  if (special !== undefined) return { kind: 'float', value: special }
  const hint = s[0]!
  if (hint === '.') {
    // strconv.ParseFloat of the scalar as written; out of range is an error, so the scalar stays a string.
    const f = /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) ? Number(s) : Number.NaN
    return Number.isFinite(f) ? { kind: 'float', value: f } : { kind: 'str' }
  }
  if (hint === '+' || hint === '-' || (hint >= '0' && hint <= '9')) {
    // A timestamp decoded into interface{} stays its text in v2; none parses as a number, so none needs a case.
    const plain = s.replaceAll('_', '')
    const int = parseBase0(plain, true) ?? parseBase0(plain, false)
    if (int !== null) return { kind: 'int', value: int }
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = Number(plain)
      if (Number.isFinite(f)) return { kind: 'float', value: f }
    }
  }
  return { kind: 'str' }
}

/** A resolved value as the JSON YAMLToJSON writes decodes here (an int past 2^53 keeps its digits). */
function toValue(r: Resolved, source: string, onError: (message: string) => void): unknown {
  switch (r.kind) {
    case 'null':
      return null
    case 'bool':
      return r.value
    case 'int': {
      const n = Number(r.value)
      return Number.isSafeInteger(n) ? n : new RawNumber(n, r.value.toString())
    }
    case 'float':
      // encoding/json cannot write them; YAMLToJSON fails.
      if (!Number.isFinite(r.value))
        onError(`json: unsupported value: ${r.value > 0 ? '+Inf' : r.value < 0 ? '-Inf' : 'NaN'}`)
      return r.value
    case 'str':
      return source
  }
}

/** strconv.FormatFloat(f, 'g', -1, 32), how YAMLToJSON writes a float map key (.inf, -.inf, .nan as go-yaml does). */
function formatFloat32(x: number): string {
  if (Number.isNaN(x)) return '.nan'
  if (!Number.isFinite(x)) return x > 0 ? '.inf' : '-.inf'
  const f = Math.fround(x)
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  let p = 1
  while (p < 9 && Math.fround(Number(f.toPrecision(p))) !== f) p++
  const [mantissa, e] = f.toExponential(p - 1).split('e') as [string, string]
  const exp = Number(e)
  const sign = mantissa.startsWith('-') ? '-' : ''
  const digits = mantissa.replace(/^-/, '').replace('.', '').replace(/0+$/, '') || '0'
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : ''
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0')
  const frac = digits.slice(exp + 1)
  return `${sign}${whole}${frac ? `.${frac}` : ''}`
}

/** A scalar that go-yaml v2 might not read as a string starts so (its resolve table's hints) or is empty. */
const MAYBE_NOT_STRING = /^(?:[-+0-9.~yYnNtTfFoO]|$)/

const Y = (name: string) => `tag:yaml.org,2002:${name}`

/** Plain scalars in value position: go-yaml v2's resolution. */
const implicitValue: ScalarTag = {
  tag: 'tag:kubeflare:go-yaml-v2',
  default: true,
  test: MAYBE_NOT_STRING,
  resolve: (source, onError) => toValue(goResolve(source), source, onError),
}

/** Plain scalars in key position: YAMLToJSON's key strings (true, 420, 1.5); a null key is kept as the parser keeps it. */
const implicitKey: ScalarTag = {
  tag: 'tag:kubeflare:go-yaml-v2-key',
  default: 'key',
  test: MAYBE_NOT_STRING,
  resolve(source) {
    const r = goResolve(source)
    if (r.kind === 'bool' || r.kind === 'int') return String(r.value)
    if (r.kind === 'float') return formatFloat32(r.value)
    return r.kind === 'null' ? null : source
  },
}

/** Explicit !!null, !!bool, !!int, !!float tags resolve their text the same way. */
const explicit = (name: string): ScalarTag => ({
  tag: Y(name),
  resolve: (source, onError) => toValue(goResolve(source), source, onError),
})

/** The schema: core's map, seq and str, go-yaml v2's scalars (key tags first: they apply only to keys). */
function goYamlTags(base: Tags): Tags {
  const keep = base.filter((t) => typeof t !== 'string' && [Y('map'), Y('seq'), Y('str')].includes(t.tag))
  return [implicitKey, implicitValue, ...keep, ...['null', 'bool', 'int', 'float'].map(explicit)]
}

/**
 * Parses YAML text into what kube's YAMLToJSON would hand its JSON decoder, or the error it reports (worded as kube
 * words it: `error converting YAML to JSON: yaml: line 2: ...`). Aliases are capped as before (a billion laughs).
 */
export function parseKubeYaml(text: string): { value: unknown } | { error: string } {
  try {
    const value = parse(text, {
      version: '1.1',
      schema: 'core',
      customTags: goYamlTags,
      merge: true,
      uniqueKeys: false,
      maxAliasCount: 100,
      // A warning (an unknown tag in a client's body) is the client's business, not the server log's.
      logLevel: 'error',
    }) as unknown
    return { value }
  } catch (e) {
    const message = (e as Error).message.split('\n')[0]!
    const json = /json: unsupported value: \S+/.exec(message)
    return { error: `error converting YAML to JSON: ${json ? json[0] : `yaml: ${message}`}` }
  }
}
