// Sweep cases that hit a bug known-bugs.test.ts pins with it.fails: the sweep skips them so it stays green while
// the bug is visible there. `* <case>` names the case for every resource. An id leaves this list when its bug is
// fixed (known-bugs.test.ts then fails too, as it.fails does once the test passes).
// A known id is `<resource> <case>`, `<resource>/<subresource> <case>`, or the same with `*` for the resource.
export const KNOWN_BUGS: ReadonlySet<string> = new Set<string>([])
