// kube 1.33's DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault): a claim
// created with no class (no storageClassName, not even "", and no beta class annotation) gets the default
// StorageClass's name. Several defaults: the newest wins, then the first by name (volumeutil.GetDefaultClass).
import type { KubeObject } from '../../../schema/meta'
import type { StrategyContext } from '../../strategy'
import { isDefaultClass } from './storage-class'

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class'

type Claim = KubeObject & { spec?: { storageClassName?: string } }

/** GetDefaultClass: among the classes marked default, the most recently created, then the first by name. */
function defaultStorageClass(classes: readonly KubeObject[]): KubeObject | null {
  const defaults = classes.filter(isDefaultClass)
  defaults.sort((a, b) => {
    const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0
    const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0
    if (ta !== tb) return tb - ta
    const na = a.metadata.name ?? ''
    const nb = b.metadata.name ?? ''
    return na < nb ? -1 : na > nb ? 1 : 0
  })
  return defaults[0] ?? null
}

/** The plugin's Admit: creates only (old null), never the status subresource; it refuses nothing. */
export function admitDefaultStorageClass(claim: Claim, ctx: StrategyContext, old: Claim | null): null {
  if (old !== null || ctx.subresource) return null
  // helper.PersistentVolumeClaimHasClass: the annotation, or a storageClassName (even "").
  if (claim.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return null
  if (claim.spec?.storageClassName !== undefined) return null
  const found = defaultStorageClass(ctx.clusterObjects?.('storageclasses') ?? [])
  if (found) (claim.spec ??= {}).storageClassName = found.metadata.name
  return null
}
