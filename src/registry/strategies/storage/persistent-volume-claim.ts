// The PersistentVolumeClaim strategy: kube's defaults (volume mode Filesystem, dataSource and dataSourceRef made to
// agree), a new claim's status Pending (no volume controller runs here, so it stays Pending: no storage is
// simulated), ValidatePersistentVolumeClaim with the spec checks shared with pods' ephemeral volumes plus the data
// sources, ValidatePersistentVolumeClaimUpdate (the spec is immutable but for a bound claim's storage request and
// a first volumeName), the status subresource, `name` as a field selector, and the `kubectl get pvc` table.
import type { ObjectMeta } from '../../../schema/meta'
import type { PersistentVolumeClaim } from '../../../schema/persistent-volume-claim'
import { canonicalQuantity, parseQuantity } from '../../../schema/quantity'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { isDNS1123Subdomain, nameIsDNSSubdomain, validateNamespaceName } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { validatePVCSpec } from '../pod/pod-validation-volumes-claims'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'
import { admitDefaultStorageClass } from './default-storage-class'
import { specDiff } from './spec-diff'
import { accessModesString } from './volume-sources'

type PVC = PersistentVolumeClaim & { metadata: ObjectMeta }
type Spec = NonNullable<PVC['spec']>
type Ref = { apiGroup?: string; kind: string; name: string; namespace?: string }

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class'
const specPath = new FieldPath('spec')

/** validateDataSource / validateDataSourceRef. */
function validateRef(ref: Ref, path: FieldPath, withNamespace: boolean): FieldError[] {
  const errs: FieldError[] = []
  if (!ref.name) errs.push(fieldError.required(path.child('name').toString()))
  if (!ref.kind) errs.push(fieldError.required(path.child('kind').toString()))
  const group = ref.apiGroup ?? ''
  if (!group && ref.kind !== 'PersistentVolumeClaim')
    errs.push(
      fieldError.invalid(
        path.toString(),
        ref.kind,
        "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      ),
    )
  if (group)
    for (const m of isDNS1123Subdomain(group))
      errs.push(fieldError.invalid(path.child('apiGroup').toString(), group, m))
  if (withNamespace && ref.namespace)
    for (const m of validateNamespaceName(ref.namespace, false))
      errs.push(fieldError.invalid(path.child('namespace').toString(), ref.namespace, m))
  return errs
}

/** ValidatePersistentVolumeClaimSpec: the checks shared with ephemeral volumes, then the data sources. */
function validateSpec(spec: Spec): FieldError[] {
  const errs = validatePVCSpec(spec, specPath)
  const ds = spec.dataSource as Ref | undefined
  const dsr = spec.dataSourceRef as Ref | undefined
  if (ds) errs.push(...validateRef(ds, specPath.child('dataSource'), false))
  if (dsr) errs.push(...validateRef(dsr, specPath.child('dataSourceRef'), true))
  if (dsr?.namespace) {
    if (ds)
      errs.push(
        fieldError.invalid('spec', 'spec.dataSource', 'may not be specified when dataSourceRef.namespace is specified'),
      )
  } else if (
    ds &&
    dsr &&
    !((ds.apiGroup ?? null) === (dsr.apiGroup ?? null) && ds.kind === dsr.kind && ds.name === dsr.name)
  ) {
    errs.push(fieldError.invalid('spec', 'spec.dataSource', 'must match dataSourceRef'))
  }
  return errs
}

/** ValidatePersistentVolumeClaimUpdate beyond the spec checks. */
function validateUpdate(pvc: PVC, old: PVC): FieldError[] {
  const spec = pvc.spec ?? {}
  const oldSpec = old.spec ?? {}
  const next = structuredClone(spec) as Record<string, unknown> & Spec
  const prev = structuredClone(oldSpec) as Record<string, unknown> & Spec
  // volumeName may be set once; a claim may move from the beta annotation or from no class to storageClassName.
  if (!oldSpec.volumeName) prev.volumeName = next.volumeName
  const oldAnnotation = old.metadata.annotations?.[BETA_CLASS_ANNOTATION]
  if (oldSpec.storageClassName === undefined && spec.storageClassName !== undefined) {
    if (oldAnnotation === undefined || spec.storageClassName === oldAnnotation)
      prev.storageClassName = spec.storageClassName
  }
  const errs: FieldError[] = []
  if (pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== oldAnnotation && oldAnnotation !== undefined)
    errs.push(fieldError.forbidden(`metadata.annotations[${BETA_CLASS_ANNOTATION}]`, FIELD_IMMUTABLE_ERROR_MSG))
  if (pvc.status?.phase === 'Bound' && next.resources?.requests)
    next.resources.requests.storage = oldSpec.resources?.requests?.storage as string
  next.volumeAttributesClassName = prev.volumeAttributesClassName
  if (!deepEqual(JSON.parse(JSON.stringify(next)), JSON.parse(JSON.stringify(prev)))) {
    errs.push(
      fieldError.forbidden(
        'spec',
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff('core.PersistentVolumeClaimSpec', prev, next)}`,
      ),
    )
  }
  const newSize = parseQuantity(String(spec.resources?.requests?.storage ?? '0'))
  const oldSize = parseQuantity(String(oldSpec.resources?.requests?.storage ?? '0'))
  if (newSize && oldSize && compare(newSize, oldSize) < 0)
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'))
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null))
    errs.push(fieldError.invalid('volumeMode', spec.volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG))
  if (oldSpec.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName === undefined)
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'))
  return errs
}

/** Compares two parsed quantities (mantissa × 10^exponent). */
function compare(a: { mantissa: bigint; exponent: number }, b: { mantissa: bigint; exponent: number }): number {
  const e = Math.min(a.exponent, b.exponent)
  const x = a.mantissa * 10n ** BigInt(a.exponent - e)
  const y = b.mantissa * 10n ** BigInt(b.exponent - e)
  return x < y ? -1 : x > y ? 1 : 0
}

export const persistentVolumeClaimStrategy: Strategy<PVC> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(pvc) {
    const spec = (pvc.spec ??= {})
    spec.volumeMode ??= 'Filesystem'
  },
  // The DefaultStorageClass admission plugin: a claim created naming no class gets the default one.
  admit: admitDefaultStorageClass,
  prepareForCreate(pvc) {
    pvc.status = { phase: 'Pending' }
    const spec = pvc.spec ?? {}
    // EnforceDataSourceBackwardsCompatibility: a dataSource that is neither a claim nor a volume snapshot is dropped
    // (dataSourceRef is where other populators go); then NormalizeDataSources: each fills in the other.
    const ds = spec.dataSource
    if (
      ds &&
      !(!ds.apiGroup && ds.kind === 'PersistentVolumeClaim') &&
      !(ds.apiGroup === 'snapshot.storage.k8s.io' && ds.kind === 'VolumeSnapshot')
    )
      delete spec.dataSource
    if (spec.dataSource && !spec.dataSourceRef) spec.dataSourceRef = structuredClone(spec.dataSource)
    else if (spec.dataSourceRef && !spec.dataSource && !spec.dataSourceRef.namespace) {
      const { namespace: _, ...ref } = spec.dataSourceRef
      spec.dataSource = ref
    }
  },
  validate: (pvc) => validateSpec(pvc.spec ?? {}),
  prepareForUpdate(pvc, old) {
    if (old.status === undefined) delete pvc.status
    else pvc.status = structuredClone(old.status)
  },
  // kube's strategy validates the claim, then the update, which validates the claim again: causes repeat.
  validateUpdate: (pvc, old) => [
    ...validateSpec(pvc.spec ?? {}),
    ...validateSpec(pvc.spec ?? {}),
    ...validateUpdate(pvc, old),
  ],
  validateStatusUpdate(pvc) {
    const errs: FieldError[] = []
    if ((pvc.spec?.accessModes ?? []).length === 0) errs.push(fieldError.required('Spec.accessModes'))
    for (const [k, v] of Object.entries(pvc.status?.capacity ?? {})) {
      const q = parseQuantity(String(v))
      if (q && q.mantissa < 0n)
        errs.push(fieldError.invalid(`status.capacity[${k}]`, Number(q.mantissa), 'must be a valid resource quantity'))
    }
    return errs
  },
  selectableFields: (pvc) => ({
    'metadata.name': pvc.metadata.name ?? '',
    'metadata.namespace': pvc.metadata.namespace ?? '',
    name: pvc.metadata.name ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace', 'name'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      col('Status', 'phase represents the current phase of PersistentVolumeClaim.'),
      col('Volume', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
      col('Capacity', 'capacity represents the actual resources of the underlying volume.'),
      col(
        'Access Modes',
        'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
      ),
      col('StorageClass', 'StorageClass of the pvc'),
      col('VolumeAttributesClass', 'VolumeAttributesClass of the pvc'),
      AGE_COLUMN,
      col(
        'VolumeMode',
        'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
        1,
      ),
    ],
    cells(pvc, now) {
      const bound = Boolean(pvc.spec?.volumeName)
      const storage = pvc.status?.capacity?.storage
      return [
        pvc.metadata.name,
        pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? ''),
        pvc.spec?.volumeName ?? '',
        bound ? (storage === undefined ? '0' : (canonicalQuantity(storage as string) ?? String(storage))) : '',
        bound ? accessModesString(pvc.status?.accessModes) : '',
        pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION] ?? pvc.spec?.storageClassName ?? '',
        pvc.spec?.volumeAttributesClassName || '<unset>',
        age(pvc.metadata.creationTimestamp, now),
        pvc.spec?.volumeMode ?? '<unset>',
      ]
    },
  },
}

function col(name: string, description: string, priority = 0) {
  return { name, type: 'string' as const, format: '', description, priority }
}
