// The PersistentVolume strategy (cluster-scoped): kube's defaults (reclaim policy Retain, volume mode Filesystem),
// a new volume's status Pending with its phase transition time, ValidatePersistentVolumeUpdate (the volume source
// and volume mode immutable), the status subresource's phase transition time, `name` as a field selector, and the
// `kubectl get pv` table. No volume controller runs here: a volume stays Pending unless a client writes its status.
import { NAME_DOC } from '../../table-column-docs'
import type { ObjectMeta } from '../../../schema/meta'
import type { PersistentVolume } from '../../../schema/persistent-volume'
import { canonicalQuantity } from '../../../schema/quantity'
import { deepEqual } from '../../deep-equal'
import { fieldError, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { rfc3339 } from '../../time'
import { nameIsDNSSubdomain } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { AGE_COLUMN } from '../config/data-keys'
import { specDiff } from './spec-diff'
import { accessModesString, SOURCE_KEYS, validatePersistentVolumeSpec } from './volume-sources'

type PV = PersistentVolume & { metadata: ObjectMeta }

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class'
const source = (pv: PV) => Object.fromEntries(SOURCE_KEYS.map((k) => [k, pv.spec?.[k]]))

function validateUpdate(pv: PV, old: PV): FieldError[] {
  const errs = validatePersistentVolumeSpec(pv.spec ?? {}, old.spec?.volumeAttributesClassName !== undefined)
  const next = source(pv)
  // A CSI volume may gain a controllerExpandSecretRef.
  if (old.spec?.csi && !old.spec.csi.controllerExpandSecretRef && pv.spec?.csi?.controllerExpandSecretRef)
    next.csi = { ...pv.spec.csi, controllerExpandSecretRef: undefined }
  if (!deepEqual(JSON.parse(JSON.stringify(next)), JSON.parse(JSON.stringify(source(old))))) {
    errs.push(
      fieldError.forbidden(
        'spec.persistentvolumesource',
        `spec.persistentvolumesource is immutable after creation\n${specDiff('core.PersistentVolumeSource', source(old), next)}`,
      ),
    )
  }
  if ((pv.spec?.volumeMode ?? null) !== (old.spec?.volumeMode ?? null))
    errs.push(fieldError.invalid('volumeMode', pv.spec?.volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG))
  if (old.spec?.nodeAffinity && !deepEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity))
    errs.push(fieldError.invalid('nodeAffinity', pv.spec?.nodeAffinity ?? null, FIELD_IMMUTABLE_ERROR_MSG))
  const oldClass = old.spec?.volumeAttributesClassName
  if (oldClass !== undefined && pv.spec?.volumeAttributesClassName === undefined)
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'))
  return errs
}

export const persistentVolumeStrategy: Strategy<PV> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(pv) {
    const spec = (pv.spec ??= {})
    spec.persistentVolumeReclaimPolicy ||= 'Retain'
    spec.volumeMode ??= 'Filesystem'
  },
  prepareForCreate(pv, ctx) {
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) }
  },
  validate: (pv) => validatePersistentVolumeSpec(pv.spec ?? {}, false),
  prepareForUpdate(pv, old) {
    if (old.status === undefined) delete pv.status
    else pv.status = structuredClone(old.status)
  },
  validateUpdate,
  prepareForStatusUpdate(pv, old, ctx) {
    if (pv.status?.phase !== old.status?.phase && pv.status) pv.status.lastPhaseTransitionTime = rfc3339(ctx.now)
  },
  validateStatusUpdate: () => [],
  selectableFields: (pv) => ({ 'metadata.name': pv.metadata.name ?? '', name: pv.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name', 'name'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      { ...AGE_COLUMN, name: 'Name', format: 'name', description: NAME_DOC },
      col(
        'Capacity',
        "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
      ),
      col(
        'Access Modes',
        'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
      ),
      col(
        'Reclaim Policy',
        'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
      ),
      col(
        'Status',
        'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
      ),
      col(
        'Claim',
        'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
      ),
      col('StorageClass', 'StorageClass of the pv'),
      col('VolumeAttributesClass', 'VolumeAttributesClass of the pv'),
      col(
        'Reason',
        'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
      ),
      AGE_COLUMN,
      col(
        'VolumeMode',
        'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
        1,
      ),
    ],
    cells(pv, now) {
      const claim = pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : ''
      const storage = pv.spec?.capacity?.storage
      return [
        pv.metadata.name,
        storage === undefined ? '0' : (canonicalQuantity(storage as string) ?? String(storage)),
        accessModesString(pv.spec?.accessModes),
        pv.spec?.persistentVolumeReclaimPolicy ?? '',
        pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? ''),
        claim,
        pv.metadata.annotations?.[BETA_CLASS_ANNOTATION] ?? pv.spec?.storageClassName ?? '',
        pv.spec?.volumeAttributesClassName ?? '<unset>',
        pv.status?.reason ?? '',
        age(pv.metadata.creationTimestamp, now),
        pv.spec?.volumeMode ?? '<unset>',
      ]
    },
  },
}

function col(name: string, description: string, priority = 0) {
  return { name, type: 'string' as const, format: '', description, priority }
}
