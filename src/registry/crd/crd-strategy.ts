// The CustomResourceDefinition strategy (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition):
// v1 defaults, status kept from the stored object on spec writes and the spec on status writes, generation bumped on
// spec changes, the storage version recorded in status.storedVersions, kube's validation, and deletion as a process:
// the first DELETE sets deletionTimestamp, the customresourcecleanup finalizer and Terminating=True, and the CRD
// controller (src/cluster/crd-controller.ts) removes every custom resource before it lets the CRD go.
import type { KubeObject } from '../../schema/meta'
import { clone } from '../deep-equal'
import { defaultTable } from '../default-table'
import type { Strategy } from '../strategy'
import { rfc3339 } from '../time'
import { nameIsDNSSubdomain } from '../validation/names'
import { setCondition } from './crd-conditions'
import {
  type CrdCheckers,
  specChanged,
  validateCrd,
  validateCrdStatusUpdate,
  validateCrdUpdate,
} from './crd-validation'
import type { Crd } from './json-schema'

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io'

const asCrd = (obj: KubeObject) => obj as unknown as Crd

/** SetDefaults_CustomResourceDefinition (v1 defaults.go), and the webhook service port. */
function applyDefaults(obj: KubeObject) {
  const crd = asCrd(obj)
  const spec = crd.spec
  if (!spec || typeof spec !== 'object') return
  const names = spec.names
  if (names) {
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase()
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`
  }
  spec.conversion ??= { strategy: 'None' }
  const service = spec.conversion.webhook?.clientConfig?.service
  if (service && service.port === undefined) service.port = 443
  crd.status ??= {}
  if ((crd.status.storedVersions?.length ?? 0) === 0) {
    const storage = (spec.versions ?? []).find((v) => v.storage)
    if (storage) crd.status.storedVersions = [storage.name]
  }
}

/** The storage version joins status.storedVersions (kube never removes one: a storage migration would). */
function recordStorageVersion(crd: Crd) {
  const storage = (crd.spec.versions ?? []).find((v) => v.storage)
  if (!storage) return
  crd.status ??= {}
  const stored = crd.status.storedVersions ?? []
  if (!stored.includes(storage.name)) crd.status.storedVersions = [...stored, storage.name]
}

/** The status kube writes on create: Go's zero CustomResourceDefinitionStatus (no omitempty on its fields). */
const emptyStatus = (): NonNullable<Crd['status']> => ({
  conditions: null,
  acceptedNames: { plural: '', kind: '' },
  storedVersions: null,
})

export function crdStrategy(checkers: CrdCheckers): Strategy {
  return {
    validateName: nameIsDNSSubdomain,
    applyDefaults,
    prepareForCreate(obj) {
      const crd = asCrd(obj)
      crd.status = emptyStatus()
      crd.metadata.generation = 1
      recordStorageVersion(crd)
    },
    validate: (obj) => validateCrd(asCrd(obj), checkers),
    prepareForUpdate(obj, old) {
      const crd = asCrd(obj)
      const previous = asCrd(old)
      crd.status = clone(previous.status ?? emptyStatus())
      if (specChanged(crd, previous)) crd.metadata.generation = (previous.metadata.generation ?? 0) + 1
      recordStorageVersion(crd)
    },
    validateUpdate: (obj, old) => validateCrdUpdate(asCrd(obj), asCrd(old), checkers),
    validateStatusUpdate: (obj) => validateCrdStatusUpdate(asCrd(obj)),
    selectableFields: (obj) => ({ 'metadata.name': obj.metadata.name ?? '' }),
    fieldSelectorNames: ['metadata.name'],
    allowUnconditionalUpdate: false,
    beginDelete(obj, ctx) {
      const crd = asCrd(obj)
      if (crd.metadata.deletionTimestamp) return null
      crd.metadata.deletionTimestamp = rfc3339(ctx.now)
      if (!crd.metadata.finalizers?.includes(CLEANUP_FINALIZER))
        crd.metadata.finalizers = [...(crd.metadata.finalizers ?? []), CLEANUP_FINALIZER]
      setCondition(
        crd,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        },
        ctx.now,
      )
      return { object: obj }
    },
    table: defaultTable(),
  }
}
