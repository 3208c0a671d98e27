// The Warnings a custom resource's write gets for the finalizers it adds: apiextensions-apiserver's custom resource
// strategy (pkg/registry/customresource strategy.go generateWarningsFromObj, validator.go validateKubeFinalizerName),
// sent by WarningsOnCreate and WarningsOnUpdate of the main resource (the status strategy warns of nothing).
// Custom resources are validated with apimachinery's generic finalizer rule, so an unqualified name is accepted; kube
// only warns that it should be domain-qualified.
import { formatValue } from '../field-errors'
import { isQualifiedName } from '../validation/names'
import type { KubeObject } from '../../schema/meta'

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes'])
const FIELD = 'metadata.finalizers'

/**
 * kube's warnings for the finalizers `obj` has and `old` (null on create) had not, in sorted order (sets.String's
 * List), for a custom resource's main resource; none for built-in kinds or subresources.
 */
export function customFinalizerWarnings(
  def: { unstructured?: unknown },
  subresource: string | undefined,
  obj: KubeObject,
  old: KubeObject | null,
): string[] {
  if (def.unstructured === undefined || subresource) return []
  const added = new Set(obj.metadata?.finalizers ?? [])
  for (const finalizer of old?.metadata?.finalizers ?? []) added.delete(finalizer)
  const warnings: string[] = []
  for (const finalizer of [...added].sort()) {
    const at = `${FIELD}: ${formatValue(finalizer)}`
    for (const msg of isQualifiedName(finalizer)) warnings.push(`${at}: ${msg}`)
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      warnings.push(
        finalizer.includes('.')
          ? `${at}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `${at}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      )
    }
  }
  return warnings
}
