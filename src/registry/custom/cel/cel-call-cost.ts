// What one function call of a CEL program costs, as cel-go's cost tracker prices it for kube (cel-go
// interpreter/runtimecost.go costCall, with kube's library CostEstimator.CallCost, k8s.io/apiserver
// pkg/cel/library/cost.go, taking precedence for the functions it prices): string traversals at 0.1 per character,
// regular expressions at string × pattern/4, list functions per element, `in` per list element, 1 otherwise.
import { isCelList, isCelMap } from '@bufbuild/cel'

const TRAVERSAL = 0.1 // common.StringTraversalCostFactor
const REGEX = 0.25 // common.RegexStringLengthCostFactor

/** The keys of the maps that stand for kube's library types (cel-libs.ts, cel-net.ts, cel-format.ts). */
const OPTIONAL_KEY = '@optional'
const TYPED_KEYS = ['@url', '@quantity', '@ip', '@cidr', '@format']

/** cel-go's actualSize: characters of a string, bytes, items of a list, entries of a map; 1 for anything else. */
function size(v: unknown): number {
  if (typeof v === 'string') return v.length
  if (v instanceof Uint8Array) return v.length
  if (isCelList(v)) return v.size
  if (isCelMap(v)) {
    if (v.has(OPTIONAL_KEY)) return size(v.get(OPTIONAL_KEY))
    for (const k of TYPED_KEYS) if (v.has(k)) return 1
    return v.size
  }
  return 1
}

/** kube's traversalCost: a tenth of each string's length, 1 per scalar, summed over lists and maps (truncated). */
function traversal(v: unknown): number {
  if (typeof v === 'string' || v instanceof Uint8Array) return Math.floor(v.length * TRAVERSAL)
  if (isCelList(v)) {
    let c = 0
    for (const x of v) c += traversal(x)
    return c
  }
  if (isCelMap(v) && !TYPED_KEYS.some((k) => v.has(k))) {
    let c = 0
    for (const [k, x] of v.entries()) c += traversal(k) + traversal(x)
    return c
  }
  return 1
}

const ceil = Math.ceil
const regexCost = (s: unknown, pattern: unknown) => ceil((1 + size(s)) * TRAVERSAL) * ceil(size(pattern) * REGEX)
const isText = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array

/** The longest regular expression kube assumes each named format's check to be (format.go's MaxRegexSize). */
const FORMAT_REGEX_SIZE: Record<string, number> = {
  dns1123Label: 30,
  dns1123Subdomain: 60,
  dns1035Label: 30,
  qualifiedName: 60,
  dns1123LabelPrefix: 30,
  dns1123SubdomainPrefix: 60,
  dns1035LabelPrefix: 30,
  labelValue: 40,
  uri: 1103,
  uuid: 70,
  byte: 84,
  date: 71,
  datetime: 71,
}

/**
 * What one call costs (`args` with a method's target first, as cel-go passes them): kube's CallCost where it
 * prices the function, else cel-go's costCall.
 */
export function callCost(fn: string, args: readonly unknown[], result: unknown): number {
  const [a, b] = args
  switch (fn) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return traversal(a)
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'startsWith':
    case 'endsWith':
    case 'format':
    case 'strings.quote':
      return ceil(size(a) * TRAVERSAL)
    case 'replace':
    case 'split':
    case 'ip.isCanonical':
      return ceil(size(a) * 2 * TRAVERSAL)
    case 'join':
      return ceil(size(result) * 2 * TRAVERSAL)
    case 'find':
    case 'findAll':
    case 'matches':
      return regexCost(a, b)
    case 'ip':
      return isCelMap(a) ? 1 : ceil(size(a) * TRAVERSAL)
    case 'containsIP':
      return ceil(2 * size(a) * TRAVERSAL) + (typeof b === 'string' ? ceil(size(b) * TRAVERSAL) : 0)
    case 'containsCIDR':
      return (
        ceil(2 * size(a) * TRAVERSAL) +
        ceil(size(a) * TRAVERSAL) +
        1 +
        (typeof b === 'string' ? ceil(size(b) * TRAVERSAL) : 0)
      )
    case 'validate': {
      const name = isCelMap(a) ? a.get('@format') : undefined
      return ceil((1 + size(b)) * TRAVERSAL) * ceil((FORMAT_REGEX_SIZE[String(name)] ?? 1) * REGEX)
    }
    case 'bytes':
    case 'string':
      return isText(a) ? ceil(size(a) * TRAVERSAL) : 1
    case '@in':
      return isCelList(b) ? size(b) : 1
    case '_==_':
    case '_!=_':
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return ceil(Math.min(size(a), size(b)) * TRAVERSAL)
    case '_+_':
      return isText(a) ? ceil((size(a) + size(b)) * TRAVERSAL) : 1
    case 'contains':
      return typeof a === 'string' ? ceil(size(a) * TRAVERSAL) * ceil(size(b) * TRAVERSAL) : 1
    default:
      return 1
  }
}
