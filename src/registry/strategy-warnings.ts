// The Warnings a kind's strategy gives an accepted write of the object itself (kube's WarningsOnCreate and
// WarningsOnUpdate; status and other subresource strategies warn of nothing).
import type { KubeObject } from '../schema/meta'
import type { ResourceDef } from './resource'

export function strategyWarnings(
  def: ResourceDef,
  subresource: string | undefined,
  obj: KubeObject,
  old: KubeObject | null,
): string[] {
  return subresource ? [] : (def.strategy.warnings?.(obj, old) ?? [])
}
