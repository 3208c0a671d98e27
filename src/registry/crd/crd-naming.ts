// What kube's naming and establishing controllers decide for a CRD (pkg/controller/status/naming_controller.go,
// pkg/controller/establish/establishing_controller.go), as pure functions over the CRDs of its group: the names it
// may be served under (a name another CRD of the group already serves is refused, NamesAccepted=False with the
// conflict's reason), then Established once they are accepted.
import { deepEqual } from '../deep-equal'
import { setCondition } from './crd-conditions'
import type { Crd, CrdCondition, CrdNames } from './json-schema'

const findCondition = (crd: Crd, type: string): CrdCondition | undefined =>
  crd.status?.conditions?.find((c) => c.type === type)

export const isConditionTrue = (crd: Crd, type: string) => findCondition(crd, type)?.status === 'True'

/** The names and kinds the other CRDs of the group serve (getAcceptedNamesForGroup). */
function namesInUse(crd: Crd, all: readonly Crd[]) {
  const resources = new Set<string>()
  const kinds = new Set<string>()
  for (const other of all) {
    if (other.spec.group !== crd.spec.group || other.metadata.name === crd.metadata.name) continue
    const n = other.status?.acceptedNames
    if (!n) continue
    for (const x of [n.plural, n.singular ?? '', ...(n.shortNames ?? [])]) resources.add(x)
    kinds.add(n.kind)
    kinds.add(n.listKind ?? '')
  }
  return { resources, kinds }
}

/** equalToAcceptedOrFresh. */
function conflict(requested: string, accepted: string, used: Set<string>): string | null {
  if (requested === accepted || !used.has(requested)) return null
  return `"${requested}" is already in use`
}

/**
 * The naming controller's pass over one CRD: its status with accepted names, NamesAccepted and the Established
 * condition it implies, or null when nothing changes. `all` is every CRD (their accepted names are claims).
 */
export function acceptNames(crd: Crd, all: readonly Crd[], now: Date): Crd | null {
  const requested = crd.spec.names
  const accepted: CrdNames = crd.status?.acceptedNames ?? { plural: '', kind: '' }
  if (deepEqual(requested, accepted)) return null
  // Only this CRD's group is looked at, and only claims already made (status.acceptedNames).
  const { resources, kinds } = namesInUse(crd, all)
  const next: CrdNames = { ...accepted }
  let failed: { reason: string; message: string } | null = null
  const check = (reason: string, message: string | null) => {
    if (message === null) return true
    failed = { reason, message }
    return false
  }
  if (check('PluralConflict', conflict(requested.plural, accepted.plural, resources))) next.plural = requested.plural
  if (check('SingularConflict', conflict(requested.singular ?? '', accepted.singular ?? '', resources)))
    next.singular = requested.singular
  if (!deepEqual(requested.shortNames, accepted.shortNames)) {
    const own = new Set(accepted.shortNames ?? [])
    const errs = (requested.shortNames ?? [])
      .filter((s) => !own.has(s))
      .map((s) => conflict(s, '', resources))
      .filter((e): e is string => e !== null)
    const message = errs.length === 0 ? null : errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`
    if (check('ShortNamesConflict', message)) next.shortNames = requested.shortNames
  }
  if (check('KindConflict', conflict(requested.kind, accepted.kind, kinds))) next.kind = requested.kind
  if (check('ListKindConflict', conflict(requested.listKind ?? '', accepted.listKind ?? '', kinds)))
    next.listKind = requested.listKind
  next.categories = requested.categories
  const refusal = failed as { reason: string; message: string } | null
  const namesAccepted = refusal
    ? { type: 'NamesAccepted', status: 'False', ...refusal }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }
  const sameCondition = (() => {
    const old = findCondition(crd, 'NamesAccepted')
    return (
      old &&
      old.status === namesAccepted.status &&
      old.reason === namesAccepted.reason &&
      old.message === namesAccepted.message
    )
  })()
  if (deepEqual(accepted, canonicalNames(next)) && sameCondition) return null
  const out: Crd = structuredClone(crd)
  out.status ??= {}
  out.status.acceptedNames = canonicalNames(next)
  setCondition(out, namesAccepted, now)
  const established = findCondition(crd, 'Established')
  if (established?.status !== 'True' && namesAccepted.status === 'True') {
    setCondition(
      out,
      { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' },
      now,
    )
  } else if (!established) {
    setCondition(
      out,
      { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' },
      now,
    )
  }
  return out
}

/** Names in Go's field order, without the optional ones left empty (omitempty). */
function canonicalNames(n: CrdNames): CrdNames {
  return {
    plural: n.plural ?? '',
    ...(n.singular ? { singular: n.singular } : {}),
    ...(n.shortNames?.length ? { shortNames: n.shortNames } : {}),
    kind: n.kind ?? '',
    ...(n.listKind ? { listKind: n.listKind } : {}),
    ...(n.categories?.length ? { categories: n.categories } : {}),
  }
}

/** The establishing controller: NamesAccepted=True and not yet Established → Established=True (null: no change). */
export function establish(crd: Crd, now: Date): Crd | null {
  if (!isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established')) return null
  const out: Crd = structuredClone(crd)
  setCondition(
    out,
    {
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    },
    now,
  )
  return out
}
