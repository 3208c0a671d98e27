// The StorageClass strategy (cluster-scoped): kube 1.33's defaults (reclaimPolicy Delete, volumeBindingMode
// Immediate), ValidateStorageClass and ValidateStorageClassUpdate (pkg/apis/storage/validation: the provisioner a
// qualified name, parameters, reclaim policy, binding mode and allowed topologies; provisioner, parameters, reclaim
// policy and binding mode immutable) with their messages, and the `kubectl get storageclass` table, where the
// default class's name reads `<name> (default)`.
import type { ObjectMeta } from '../../../schema/meta'
import type { StorageClass } from '../../../schema/storage-class'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { isQualifiedName, nameIsDNSSubdomain } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'

type StorageClassObject = StorageClass & { metadata: ObjectMeta }
type Term = NonNullable<StorageClass['allowedTopologies']>[number]

const MAX_PARAMETERS = 512
const MAX_PARAMETERS_SIZE = 256 * 1024
const RECLAIM_POLICIES = ['Delete', 'Retain']
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer']

/** storageutil.IsDefaultAnnotation: the GA annotation, or the beta one, says "true". */
export function isDefaultClass(sc: { metadata?: ObjectMeta }): boolean {
  const a = sc.metadata?.annotations ?? {}
  return (
    a['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    a['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  )
}

const byteLength = (s: string) => new TextEncoder().encode(s).length

function validateParameters(params: Record<string, string> | undefined): FieldError[] {
  const entries = Object.entries(params ?? {})
  if (entries.length > MAX_PARAMETERS) return [fieldError.tooLong('parameters', MAX_PARAMETERS)]
  const errs: FieldError[] = []
  let size = 0
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(fieldError.invalid('parameters', k, 'field can not be empty.'))
    size += byteLength(k) + byteLength(v)
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(fieldError.tooLong('parameters', MAX_PARAMETERS_SIZE))
  return errs
}

/** ValidateTopologySelectorTerm: its requirements, and the values it allows per key (for the duplicate check). */
function validateTerm(term: Term, path: FieldPath): { errs: FieldError[]; values: Map<string, Set<string>> } {
  const errs: FieldError[] = []
  const values = new Map<string, Set<string>>()
  ;(term.matchLabelExpressions ?? []).forEach((req, i) => {
    const at = path.child('matchLabelExpressions').index(i)
    const set = new Set<string>()
    const vals = req.values ?? []
    if (vals.length === 0) errs.push(fieldError.required(at.child('values').toString(), ''))
    vals.forEach((v, j) => {
      if (set.has(v)) errs.push(fieldError.duplicate(at.child('values').index(j).toString(), v))
      set.add(v)
    })
    for (const m of isQualifiedName(req.key ?? ''))
      errs.push(fieldError.invalid(at.child('key').toString(), req.key ?? '', m))
    if (values.has(req.key ?? '')) errs.push(fieldError.duplicate(at.child('key').toString(), req.key ?? ''))
    values.set(req.key ?? '', set)
  })
  return { errs, values }
}

const sameValues = (a: Map<string, Set<string>>, b: Map<string, Set<string>>) =>
  a.size === b.size &&
  [...a].every(([k, s]) => b.has(k) && b.get(k)!.size === s.size && [...s].every((v) => b.get(k)!.has(v)))

/**
 * validateAllowedTopologies. kube compares each term with the ones seen so far in a slice it first fills with as many
 * empty entries as there are terms (make with a length, then append), so a term without requirements is reported as
 * a duplicate once per term, as kube reports it.
 */
function validateTopologies(terms: readonly Term[]): FieldError[] {
  if (terms.length === 0) return []
  const errs: FieldError[] = []
  const seen: Map<string, Set<string>>[] = terms.map(() => new Map())
  const path = new FieldPath('allowedTopologies')
  terms.forEach((term, i) => {
    const { errs: termErrs, values } = validateTerm(term, path.index(i))
    errs.push(...termErrs)
    for (const other of seen)
      if (sameValues(values, other))
        errs.push(fieldError.duplicate(path.index(i).child('matchLabelExpressions').toString(), ''))
    seen.push(values)
  })
  return errs
}

function validate(sc: StorageClassObject): FieldError[] {
  const errs: FieldError[] = []
  if (!sc.provisioner) errs.push(fieldError.required('provisioner', ''))
  else {
    const lower = sc.provisioner.toLowerCase()
    for (const m of isQualifiedName(lower)) errs.push(fieldError.invalid('provisioner', lower, m))
  }
  errs.push(...validateParameters(sc.parameters))
  if (sc.reclaimPolicy && !RECLAIM_POLICIES.includes(sc.reclaimPolicy))
    errs.push(fieldError.notSupported('reclaimPolicy', sc.reclaimPolicy, RECLAIM_POLICIES))
  if (sc.volumeBindingMode === undefined) errs.push(fieldError.required('volumeBindingMode', ''))
  else if (!BINDING_MODES.includes(sc.volumeBindingMode))
    errs.push(fieldError.notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES))
  errs.push(...validateTopologies(sc.allowedTopologies ?? []))
  return errs
}

export const storageClassStrategy: Strategy<StorageClassObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(sc) {
    // SetDefaults_StorageClass.
    sc.reclaimPolicy ??= 'Delete'
    sc.volumeBindingMode ??= 'Immediate'
  },
  prepareForCreate: () => undefined,
  validate,
  prepareForUpdate: () => undefined,
  validateUpdate(sc, old) {
    const errs = validate(sc)
    // reflect.DeepEqual: a map sent empty is not the absent one stored (kube refuses that too).
    if (!deepEqual(sc.parameters ?? null, old.parameters ?? null))
      errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'))
    if (sc.provisioner !== old.provisioner)
      errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'))
    if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? ''))
      errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'))
    if ((sc.volumeBindingMode ?? null) !== (old.volumeBindingMode ?? null))
      errs.push(fieldError.invalid('volumeBindingMode', sc.volumeBindingMode ?? null, FIELD_IMMUTABLE_ERROR_MSG))
    return errs
  },
  selectableFields: (sc) => ({ 'metadata.name': sc.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      col('Provisioner', 'provisioner indicates the type of the provisioner.'),
      col(
        'ReclaimPolicy',
        'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
      ),
      col(
        'VolumeBindingMode',
        'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
      ),
      col('AllowVolumeExpansion', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
      AGE_COLUMN,
    ],
    cells: (sc, now) => [
      isDefaultClass(sc) ? `${sc.metadata.name} (default)` : sc.metadata.name,
      sc.provisioner,
      sc.reclaimPolicy ?? 'Delete',
      sc.volumeBindingMode ?? 'Immediate',
      // A boolean in a string column, as printers.go appends it.
      sc.allowVolumeExpansion ?? false,
      age(sc.metadata.creationTimestamp, now),
    ],
  },
}

function col(name: string, description: string) {
  return { name, type: 'string' as const, format: '', description, priority: 0 }
}
