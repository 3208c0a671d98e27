// kube-apiserver's scheduling/bootstrap-system-priority-classes post-start hook, run when the cluster object starts:
// each system PriorityClass missing is created; one that exists is left as it is (they cannot be deleted, and their
// name, value and globalDefault cannot change).
import type { ControllerHost } from '../host/controller'
import { systemPriorityClassObjects } from '../registry/scheduling/system-priority-classes'

export async function ensureSystemPriorityClasses(target: ControllerHost): Promise<void> {
  await Promise.all(
    systemPriorityClassObjects().map(async (pc) => {
      if (target.get('priorityclasses', pc.metadata.name ?? '')) return
      const r = await target.create('priorityclasses', pc, { fieldManager: 'kube-apiserver' })
      if (!r.ok && r.status.code !== 409)
        console.error(`system priority class ${pc.metadata.name}: ${r.status.message}`)
    }),
  )
}
