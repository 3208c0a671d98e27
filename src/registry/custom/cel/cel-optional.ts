// Optional values as kube's rules meet them (cel-go's optional types): oldSelf of a rule with optionalOldSelf, what
// format.named() and <format>.validate() answer. An optional is a map holding its value under '@optional' (none: an
// empty map), with hasValue(), value() and orValue().
import { CelScalar, celError, type CelFunc, celMap, celMethod, mapType } from '@bufbuild/cel'

const { BOOL, DYN, STRING } = CelScalar
const MAP = mapType(STRING, DYN)

const OPTIONAL_KEY = '@optional'

/** oldSelf of a rule with optionalOldSelf: an optional, present when the object had an old value. */
export const optionalOf = (v: unknown, present: boolean) =>
  celMap(new Map<string, never>(present ? [[OPTIONAL_KEY, v as never]] : []))

/** hasValue, value and orValue of an optional. */
export const OPTIONAL_FUNCS: CelFunc[] = [
  celMethod('hasValue', MAP, [], BOOL, function () {
    return this.has(OPTIONAL_KEY)
  }),
  celMethod('value', MAP, [], DYN, function () {
    if (!this.has(OPTIONAL_KEY)) throw celError('optional.none() dereference')
    return this.get(OPTIONAL_KEY) as never
  }),
  celMethod('orValue', MAP, [DYN], DYN, function (d) {
    return (this.has(OPTIONAL_KEY) ? this.get(OPTIONAL_KEY) : d) as never
  }),
]
