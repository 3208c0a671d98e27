// The bootstrap RBAC policy put in place when a host starts, as kube-apiserver's rbac/bootstrap-roles post-start hook
// does on every start: the cluster's host reconciles the ClusterRoles and ClusterRoleBindings, a namespace's host the
// Roles and RoleBindings the policy puts in its namespace (kube-system, kube-public). Reconciling adds what is
// missing and keeps what users added (src/registry/rbac/bootstrap-reconcile.ts).
import { bootstrapPolicy } from '../registry/rbac/bootstrap-policy'
import { type RbacObject, reconcileBootstrap } from '../registry/rbac/bootstrap-reconcile'
import type { Result } from '../registry/status'
import type { ControllerHost } from './controller'
import type { KubeObject } from '../schema/meta'
import type { WriteOptions } from './rpc-types'

/** kube-apiserver writes the policy as itself. */
const OPTS: WriteOptions = { fieldManager: 'kube-apiserver' }

const PLURALS: Record<string, string> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
}

/** Reconciles the policy objects of `scope` ('' for the cluster); a refusal is logged, never fatal to the start. */
export async function reconcileBootstrapPolicy(target: ControllerHost, scope: string): Promise<void> {
  const policy = bootstrapPolicy()
  const inScope = (o: RbacObject) => (o.metadata?.namespace ?? '') === scope
  const wanted =
    scope === ''
      ? { ...policy, roles: [], roleBindings: [] }
      : {
          clusterRoles: [],
          clusterRoleBindings: [],
          roles: policy.roles.filter(inScope),
          roleBindings: policy.roleBindings.filter(inScope),
        }
  if (Object.values(wanted).every((list) => list.length === 0)) return
  const resources = scope === '' ? ['clusterroles', 'clusterrolebindings'] : ['roles', 'rolebindings']
  const existing = resources.flatMap((r) => target.all(r).map((s) => s.object as unknown as RbacObject))
  // All at once: the write queue commits them in a few batches rather than one commit each.
  await Promise.all(
    reconcileBootstrap(existing, wanted).map(async (action) => {
      const obj = action.object as unknown as KubeObject
      const resource = PLURALS[action.object.kind ?? '']!
      const name = obj.metadata.name ?? ''
      let r: Result<unknown>
      if (action.op === 'create') r = await target.create(resource, obj, OPTS)
      else if (action.op === 'update') r = await target.update(resource, name, () => obj, OPTS)
      else {
        const gone = await target.delete(resource, name, { preconditions: { uid: action.uid } }, OPTS)
        r = gone.ok || gone.status.code === 404 ? await target.create(resource, stripServerFields(obj), OPTS) : gone
      }
      if (!r.ok && r.status.code !== 409) {
        console.error(`bootstrap policy: ${action.op} ${resource}/${name}: ${r.status.message}`)
      }
    }),
  )
}

/** A recreated binding is a new object: what the server set on the old one does not carry over. */
function stripServerFields(obj: KubeObject): KubeObject {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...metadata } = obj.metadata
  return { ...obj, metadata }
}
