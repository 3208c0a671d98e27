// Go's regexp (RE2 syntax, Go's error texts) for schema `pattern`s and CEL's matches(): @bufbuild/re2 parses as
// RE2 does and words its errors as Go's regexp package (`error parsing regexp: missing closing ): ...`).
import { RE2JS } from '@bufbuild/re2'

const cache = new Map<string, { re: RE2JS } | { error: string }>()

/** regexp.Compile: the compiled pattern, or Go's error text. Compiled patterns are kept per isolate. */
export function compileGoRegexp(pattern: string): { re: RE2JS } | { error: string } {
  let hit = cache.get(pattern)
  if (!hit) {
    try {
      hit = { re: RE2JS.compile(pattern) }
    } catch (e) {
      hit = { error: e instanceof Error ? e.message : String(e) }
    }
    if (cache.size > 1000) cache.clear()
    cache.set(pattern, hit)
  }
  return hit
}
