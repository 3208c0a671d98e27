// ObjectMeta validation on create and update: kube's ValidateObjectMeta and ValidateObjectMetaUpdate, in the core
// flavour for the kinds kube-apiserver validates with it and the generic one for the rest.
//
// Sources: k8s.io/apimachinery pkg/api/validation/objectmeta.go and generic.go, pkg/apis/meta/v1/validation, and the
// core wrapper in k8s.io/kubernetes pkg/apis/core/validation (which adds the standard-finalizer check). Error order
// and field paths follow kube's, including its quirks (label and owner-reference errors name the list, not the entry).
import { fieldError, formatValue, FieldPath, type FieldError } from '../field-errors'
import type { ObjectMeta } from '../../schema/meta'
import { validateManagedFields } from './managed-fields'
import { goTime, ZERO_TIME } from './meta-time'
import { byteLength, isQualifiedName, isValidLabelValue, validateNamespaceName, type ValidateNameFunc } from './names'

/** How a kind's metadata is validated. */
export interface MetaValidationOptions {
  /** Namespaced kinds require metadata.namespace; cluster-scoped kinds forbid it. */
  namespaced: boolean
  /** The kind's name rule (nameIsDNSSubdomain for pods, nameIsDNS1035Label for services...). */
  validateName: ValidateNameFunc
  /** The kind validated, which decides the finalizer rule (usesCoreFinalizerRule); absent: the generic rule. */
  type?: MetaKind
}

/** What decides a kind's finalizer rule: its group and kind, and whether it is a custom resource. */
export interface MetaKind {
  group: string
  kind: string
  /** Set for custom resources (a codec instead of a Go type). */
  unstructured?: unknown
}

/**
 * Kinds of kube-apiserver's own groups whose validation calls apimachinery's generic ValidateObjectMeta rather than
 * the core wrapper: an unprefixed finalizer such as `customresourcecleanup.apiextensions.k8s.io` is fine on them.
 * (ValidatePodDisruptionBudget validates no metadata: the store's generic BeforeCreate check is all it gets.)
 */
const GENERIC_META_KINDS = new Set([
  'apiextensions.k8s.io/CustomResourceDefinition',
  'policy/PodDisruptionBudget',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'apiregistration.k8s.io/APIService',
])

/**
 * Whether the core standard-finalizer rule applies: kube-apiserver's built-in kinds validated through
 * k8s.io/kubernetes pkg/apis/core/validation. CustomResourceDefinitions and custom resources are validated by
 * apiextensions-apiserver with apimachinery's generic rule (qualified names only), as are embedded objects.
 */
export function usesCoreFinalizerRule(type: MetaKind | undefined): boolean {
  if (!type || type.unstructured !== undefined) return false
  return !GENERIC_META_KINDS.has(`${type.group}/${type.kind}`)
}

type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number]

export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable'
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0'
const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024
const FINALIZER_ORPHAN_DEPENDENTS = 'orphan'
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion'
const STANDARD_FINALIZERS = new Set(['kubernetes', FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS])

const metadataPath = new FieldPath('metadata')

/** ValidateObjectMeta: a new object's metadata, after generateName has produced a name. */
export function validateObjectMeta(
  meta: ObjectMeta,
  opts: MetaValidationOptions,
  path: FieldPath = metadataPath,
): FieldError[] {
  const errs: FieldError[] = []
  const at = (child: string) => path.child(child).toString()
  // Both are checked when both are set: a bad generateName yields errors for generateName and the generated name.
  if (meta.generateName) {
    errs.push(...invalidEach(at('generateName'), meta.generateName, opts.validateName(meta.generateName, true)))
  }
  if (!meta.name) errs.push(fieldError.required(at('name'), 'name or generateName is required'))
  else errs.push(...invalidEach(at('name'), meta.name, opts.validateName(meta.name, false)))
  if (opts.namespaced) {
    if (!meta.namespace) errs.push(fieldError.required(at('namespace')))
    else errs.push(...invalidEach(at('namespace'), meta.namespace, validateNamespaceName(meta.namespace, false)))
  } else if (meta.namespace) {
    errs.push(fieldError.forbidden(at('namespace'), 'not allowed on this type'))
  }
  errs.push(...validateNonnegativeField(meta.generation ?? 0, path.child('generation')))
  errs.push(...validateLabels(meta.labels, path.child('labels')))
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')))
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')))
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')))
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')))
  if (usesCoreFinalizerRule(opts.type)) {
    errs.push(...validateStandardFinalizerNames(meta.finalizers, path.child('finalizers')))
  }
  return errs
}

/**
 * ValidateObjectMetaUpdate: what an update may not change. The caller runs BeforeUpdate first (old generation, uid,
 * creationTimestamp and deletion fields carried over), as kube's store does, so a client never trips these for
 * fields it merely omitted.
 *
 * kube's `metadata.resourceVersion: must be specified for an update` check is left to the store: kube's store
 * rejects (or, for unconditional updates, fills in) an empty resourceVersion before validation ever runs, so the check
 * here never fires there either.
 */
export function validateObjectMetaUpdate(
  meta: ObjectMeta,
  old: ObjectMeta,
  type?: MetaKind,
  path: FieldPath = metadataPath,
): FieldError[] {
  const errs: FieldError[] = []
  const at = (child: string) => path.child(child).toString()
  if (old.deletionTimestamp) {
    errs.push(...validateNoNewFinalizers(meta.finalizers ?? [], old.finalizers ?? [], path.child('finalizers')))
  }
  const generation = meta.generation ?? 0
  if (generation < (old.generation ?? 0)) {
    errs.push(fieldError.invalid(at('generation'), generation, 'must not be decremented'))
  }
  for (const key of ['name', 'namespace', 'uid'] as const) {
    const value = meta[key] ?? ''
    if (value !== (old[key] ?? '')) errs.push(fieldError.invalid(at(key), value, FIELD_IMMUTABLE_ERROR_MSG))
  }
  // An absent creationTimestamp is Go's zero metav1.Time; an absent deletionTimestamp is a nil pointer.
  const created = goTime(meta.creationTimestamp ?? ZERO_TIME)
  if (created.key !== goTime(old.creationTimestamp ?? ZERO_TIME).key) {
    errs.push(invalidGoValue(at('creationTimestamp'), created.text, FIELD_IMMUTABLE_ERROR_MSG))
  }
  const deleting = meta.deletionTimestamp
  const wasDeleting = old.deletionTimestamp
  const sameDeletion =
    deleting === undefined || wasDeleting === undefined
      ? deleting === wasDeleting
      : goTime(deleting).key === goTime(wasDeleting).key
  if (!sameDeletion) {
    const text = deleting === undefined ? 'null' : goTime(deleting).text
    errs.push(invalidGoValue(at('deletionTimestamp'), text, FIELD_IMMUTABLE_ERROR_MSG))
  }
  if (meta.deletionGracePeriodSeconds !== old.deletionGracePeriodSeconds) {
    const value = meta.deletionGracePeriodSeconds ?? null
    errs.push(fieldError.invalid(at('deletionGracePeriodSeconds'), value, FIELD_IMMUTABLE_ERROR_MSG))
  }
  errs.push(...validateLabels(meta.labels, path.child('labels')))
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')))
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')))
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')))
  if (usesCoreFinalizerRule(type))
    errs.push(...validateStandardFinalizerNames(meta.finalizers, path.child('finalizers')))
  return errs
}

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [fieldError.invalid(path.toString(), value, IS_NEGATIVE_ERROR_MSG)] : []
}

/** ValidateLabels: keys are qualified names, values label values; every error names the map, not the key. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const field = path.toString()
  for (const [key, value] of Object.entries(labels ?? {})) {
    errs.push(...invalidEach(field, key, isQualifiedName(key)), ...invalidEach(field, value, isValidLabelValue(value)))
  }
  return errs
}

/** ValidateAnnotations: keys are qualified names checked case-insensitively; keys plus values fit in 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const field = path.toString()
  let size = 0
  for (const [key, value] of Object.entries(annotations ?? {})) {
    errs.push(...invalidEach(field, key, isQualifiedName(key.toLowerCase())))
    size += byteLength(key) + byteLength(value)
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(fieldError.tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT_B))
  return errs
}

/** ValidateOwnerReferences: each reference complete, not an Event, and at most one controller. */
function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let firstController = ''
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path))
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`
      if (firstController) {
        const all = `[]v1.OwnerReference{${(refs ?? []).map(goOwnerReference).join(', ')}}`
        const detail =
          'Only one reference can have Controller set to true. ' +
          `Found "true" in references for ${firstController} and ${current}`
        errs.push(invalidGoValue(path.toString(), all, detail))
      } else {
        firstController = current
      }
    }
  }
  return errs
}

// Reported on the list's path (`metadata.ownerReferences.uid`), not the entry's: kube passes the list path down.
function validateOwnerReference(ref: OwnerReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const gvk = parseGroupVersionKind(ref.apiVersion, ref.kind)
  const at = (child: string) => path.child(child).toString()
  if (!gvk.version) errs.push(fieldError.invalid(at('apiVersion'), ref.apiVersion, 'version must not be empty'))
  if (!gvk.kind) errs.push(fieldError.invalid(at('kind'), ref.kind, 'must not be empty'))
  if (!ref.name) errs.push(fieldError.invalid(at('name'), ref.name, 'must not be empty'))
  if (!ref.uid) errs.push(fieldError.invalid(at('uid'), ref.uid, 'must not be empty'))
  // BannedOwners: core/v1 Event may own nothing. The detail is schema.GroupVersionKind's String().
  if (gvk.group === '' && gvk.version === 'v1' && gvk.kind === 'Event') {
    const detail = `${gvk.group}/${gvk.version}, Kind=${gvk.kind} is disallowed from being an owner`
    errs.push(invalidGoValue(path.toString(), goOwnerReference(ref), detail))
  }
  return errs
}

/** schema.FromAPIVersionAndKind: an apiVersion with more than one '/' parses to no group and no version. */
function parseGroupVersionKind(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind }
  const parts = apiVersion.split('/')
  if (parts.length === 1) return { group: '', version: apiVersion, kind }
  if (parts.length === 2) return { group: parts[0], version: parts[1], kind }
  return { group: '', version: '', kind }
}

/** ValidateFinalizers: qualified names, not both orphan and foregroundDeletion. Kube allows duplicates, so do we. */
function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const field = path.toString()
  for (const finalizer of finalizers ?? []) errs.push(...invalidEach(field, finalizer, isQualifiedName(finalizer)))
  if (finalizers?.includes(FINALIZER_ORPHAN_DEPENDENTS) && finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    const detail = `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`
    errs.push(fieldError.invalid(field, finalizers, detail))
  }
  return errs
}

// The core/v1 wrapper's extra rule: an unprefixed finalizer must be one kube itself defines.
function validateStandardFinalizerNames(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  ;(finalizers ?? []).forEach((finalizer, i) => {
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      const detail = 'name is neither a standard finalizer name nor is it fully qualified'
      errs.push(fieldError.invalid(path.index(i).toString(), finalizer, detail))
    }
  })
  return errs
}

/** ValidateNoNewFinalizers: an object being deleted may lose finalizers but not gain them. */
function validateNoNewFinalizers(finalizers: readonly string[], old: readonly string[], path: FieldPath): FieldError[] {
  const before = new Set(old)
  const extra = [...new Set(finalizers.filter((f) => !before.has(f)))].sort()
  if (extra.length === 0) return []
  return [
    fieldError.forbidden(
      path.toString(),
      `no new finalizers can be added if the object is being deleted, found new finalizers ${formatValue(extra)}`,
    ),
  ]
}

function invalidEach(field: string, value: string, details: string[]): FieldError[] {
  return details.map((detail) => fieldError.invalid(field, value, detail))
}

// For values kube prints through %#v or String() rather than %q, which fieldError.invalid's formatting cannot express.
function invalidGoValue(field: string, goText: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${goText}: ${detail}` }
}

/**
 * Go's %#v of a metav1.OwnerReference. Non-nil *bool fields print as addresses in kube, which no client can rely on;
 * a fixed one keeps the shape.
 */
function goOwnerReference(ref: OwnerReference): string {
  const ptr = (b: boolean | undefined) => (b === undefined ? '(*bool)(nil)' : '(*bool)(0xc000000000)')
  return (
    `v1.OwnerReference{APIVersion:${JSON.stringify(ref.apiVersion)}, Kind:${JSON.stringify(ref.kind)}, ` +
    `Name:${JSON.stringify(ref.name)}, UID:${JSON.stringify(ref.uid)}, Controller:${ptr(ref.controller)}, ` +
    `BlockOwnerDeletion:${ptr(ref.blockOwnerDeletion)}}`
  )
}
