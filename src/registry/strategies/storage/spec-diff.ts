// The diff kube appends to "... is immutable after creation" errors. kube prints go-cmp's Diff, whose format go-cmp
// itself declares unstable; this renders the same shape (the struct, a -/+ pair per changed field, a count of the
// identical ones) so a reader sees what changed.
const goName = (field: string) => field.charAt(0).toUpperCase() + field.slice(1)

export function specDiff(type: string, old: Record<string, unknown>, next: Record<string, unknown>): string {
  const fields = [...new Set([...Object.keys(old), ...Object.keys(next)])]
  const lines = [`  ${type}{`]
  let same = 0
  for (const f of fields) {
    const a = JSON.stringify(old[f] ?? null)
    const b = JSON.stringify(next[f] ?? null)
    if (a === b) {
      same++
      continue
    }
    lines.push(`- \t${goName(f)}: ${a},`, `+ \t${goName(f)}: ${b},`)
  }
  if (same > 0) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`)
  lines.push('  }')
  return lines.join('\n')
}
