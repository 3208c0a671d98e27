// Query parameters shared by the verbs: list options (with kube's ListOptions validation), get options, and the
// parameter codec's conversions (booleans, int64s). The options of writes are read in write-options.ts.
import type { Context } from 'hono'
import { fieldError, type FieldError } from '../registry/field-errors'
import { statuses, StatusError } from '../registry/status'
import type { ListMode } from '../registry/list'
import { parseSelectors, type Selectors } from '../registry/selectors'
import type { ResourceDef } from '../registry/resource'
import { parseResourceVersion } from '../registry/resource-version'
import { goQuote } from '../registry/go-strings'

export interface ListOptions {
  mode: ListMode
  minRv?: number
  limit?: number
  selectors: Selectors
  watch: boolean
  /** The resourceVersion a watch starts after; undefined = "start with the current state". */
  resourceVersion?: string
  timeoutSeconds?: number
  allowWatchBookmarks: boolean
  sendInitialEvents?: boolean
}

/**
 * A boolean query parameter as kube converts it (runtime.Convert_Slice_string_To_bool): absent, `0` or any casing of
 * `false` is false; anything else, the empty string included, is true. The python client sends `watch=True`.
 * (`pretty` is the exception: it goes through Go's strconv.ParseBool, see respond.ts.)
 */
export function queryFlag(c: Context, name: string): boolean {
  return flagValue(c.req.query(name))
}

/** The same rule over a parameter's first value (undefined: absent). */
export const flagValue = (v: string | undefined): boolean => v !== undefined && v !== '0' && v.toLowerCase() !== 'false'

/** The same rule for a *bool parameter: undefined when absent. */
export function optionalQueryFlag(c: Context, name: string): boolean | undefined {
  return c.req.query(name) === undefined ? undefined : queryFlag(c, name)
}

function invalidListOptions(errors: FieldError[]): never {
  throw new StatusError(statuses.invalid('ListOptions', '', errors, 'meta.k8s.io'))
}

function parseRv(v: string): number {
  const parsed = parseResourceVersion(v)
  if (!parsed.ok) throw new StatusError(parsed.status)
  return parsed.value
}

const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)

/**
 * An int64 query parameter as kube's parameter codec converts it (runtime.Convert_Slice_string_To_int64 over
 * strconv.ParseInt): a parameter present with an empty value is a parse error too. 400 with strconv's text.
 */
export function int64Param(value: string): number {
  const bad = (why: string) =>
    new StatusError(statuses.badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: ${why}`))
  if (!/^[+-]?[0-9]+$/.test(value)) throw bad('invalid syntax')
  const n = BigInt(value)
  if (n > INT64_MAX || n < INT64_MIN) throw bad('value out of range')
  return Number(n)
}

function parseNonNegative(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined
  const n = int64Param(v)
  if (n < 0) invalidListOptions([fieldError.invalid(name, n, 'must be greater than or equal to 0')])
  return n
}

/** The labelSelector and fieldSelector parameters, parsed (400 with kube's message when they do not parse). */
export function selectorsOf(
  def: ResourceDef,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): Selectors {
  const parsed = parseSelectors(def.strategy, labelSelector, fieldSelector)
  if (!parsed.ok) throw new StatusError(parsed.status)
  return parsed.value
}

/** Parses and validates list/watch options the way kube-apiserver does before anything is read. */
export function listOptions(c: Context, def: ResourceDef, forcedWatch = false): ListOptions {
  const q = (k: string) => c.req.query(k)
  const watch = forcedWatch || queryFlag(c, 'watch')
  const rv = q('resourceVersion') || undefined
  const match = q('resourceVersionMatch') || undefined
  const cont = q('continue') || undefined
  const limit = parseNonNegative(q('limit'), 'limit')
  const timeoutSeconds = parseNonNegative(q('timeoutSeconds'), 'timeoutSeconds')
  const sendInitialEvents = optionalQueryFlag(c, 'sendInitialEvents')
  const selectors = selectorsOf(def, q('labelSelector') || undefined, q('fieldSelector') || undefined)

  const errors: FieldError[] = []
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan') {
    errors.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan']))
  }
  if (sendInitialEvents !== undefined) {
    if (!watch) errors.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'))
    else if (match !== 'NotOlderThan') {
      errors.push(
        fieldError.forbidden(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ),
      )
    }
  } else if (watch && match !== undefined) {
    errors.push(
      fieldError.forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ),
    )
  }
  if (!watch && match !== undefined && rv === undefined) {
    errors.push(
      fieldError.forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden unless resourceVersion is provided',
      ),
    )
  }
  if (!watch && match === 'Exact' && rv === '0') {
    errors.push(
      fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
    )
  }
  if (!watch && cont !== undefined && match !== undefined) {
    errors.push(
      fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'),
    )
  }
  if (errors.length > 0) invalidListOptions(errors)
  if (!watch && cont !== undefined && rv !== undefined && rv !== '0') {
    throw new StatusError(statuses.badRequest('specifying resource version is not allowed when using continue'))
  }

  const base = {
    limit,
    selectors,
    watch,
    timeoutSeconds,
    allowWatchBookmarks: queryFlag(c, 'allowWatchBookmarks'),
    sendInitialEvents,
  }
  if (watch) {
    if (rv !== undefined) parseRv(rv)
    return { ...base, mode: { kind: 'latest' }, resourceVersion: rv }
  }
  if (cont !== undefined) return { ...base, mode: { kind: 'continue', token: cont } }
  if (rv === undefined) return { ...base, mode: { kind: 'latest' } }
  const n = parseRv(rv)
  if (n === 0) return { ...base, mode: { kind: 'any' } }
  if (match === 'Exact' || (match === undefined && limit !== undefined && limit > 0)) {
    return { ...base, mode: { kind: 'exact', rv: n } }
  }
  return { ...base, mode: { kind: 'latest' }, minRv: n }
}

/** GetOptions.resourceVersion: served from any state at least that new (0 or absent: the latest). */
export function getResourceVersion(c: Context): number | undefined {
  const rv = c.req.query('resourceVersion')
  if (rv === undefined) return undefined
  const n = parseRv(rv)
  return n === 0 ? undefined : n
}
