// NodeRestriction for the node requests the Worker serves without a store write of their own: an eviction and a
// TokenRequest, judged with the pod they name (read from its namespace's object, as kube reads its informer cache)
// before anything else of the request, as kube's admission runs before the subresource's storage. Writes the stores
// plan are judged there (src/registry/store.ts).
import type { Context } from 'hono'
import { nodeIdentity } from '../identity/node-authorizer'
import { admitNodeEviction, admitNodeTokenRequest, tokenRequestPod } from '../registry/admission/node-requests'
import { type NodeWrite, nodeRestriction, type RequestingNode } from '../registry/admission/node-restriction'
import { resourceByPlural } from '../registry/resources'
import { type Status, StatusError } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import { call, hostFor } from './hosts'

type Ctx = Context<{ Bindings: Env }>
type Obj = Record<string, any>

/** The requesting node, or null for anyone else. */
function requestingNode(c: Ctx): RequestingNode | null {
  const { user } = c.get('access')
  const identity = nodeIdentity(user)
  return identity.isNode ? { user: user.name, node: identity.node } : null
}

/** A pod as it is now, or null when there is none (any other failure is the request's). */
async function podOf(c: Ctx, namespace: string, name: string): Promise<KubeObject | null> {
  if (name === '') return null
  const got = await call(() => hostFor(c.env, resourceByPlural('pods')!, namespace).get('pods', name))
  if (got.ok) return got.value
  if (got.status.code === 404) return null
  throw new StatusError(got.status)
}

const podCreate = (subresource: string, namespace: string, name: string, object: Obj): NodeWrite => ({
  operation: 'CREATE',
  group: '',
  resource: 'pods',
  subresource,
  namespace,
  name,
  object: object as KubeObject,
  old: null,
})

const refuse = (s: Status | null) => {
  if (s) throw new StatusError(s)
}

/** POST pods/{name}/binding by a node (the authorizer lets only RBAC grant it): never, as kube's plugin says. */
export function admitBinding(c: Ctx, name: string, binding: Obj): void {
  const node = requestingNode(c)
  if (!node) return
  refuse(nodeRestriction(node, podCreate('binding', c.req.param('namespace') ?? '', name, binding)))
}

/** POST pods/{name}/eviction by a node: only of a pod bound to it. */
export async function admitEviction(c: Ctx, namespace: string, name: string, eviction: Obj): Promise<void> {
  const node = requestingNode(c)
  if (!node) return
  const podName = name || eviction.metadata?.name || ''
  refuse(admitNodeEviction(node, namespace, name, eviction, node.node ? await podOf(c, namespace, podName) : null))
}

/** POST serviceaccounts/{name}/token by a node: bound to a pod of its own, for an audience it may ask. */
export async function admitTokenRequest(c: Ctx, namespace: string, account: string, request: Obj): Promise<void> {
  const node = requestingNode(c)
  if (!node) return
  const access = c.get('access')
  const podName = tokenRequestPod(request)
  const pod = node.node && podName ? await podOf(c, namespace, podName) : null
  const mayRequest = async (audience: string) =>
    (
      await access.authorizer.authorize(
        {
          user: access.user,
          verb: 'request-serviceaccounts-token-audience',
          namespace,
          apiGroup: '',
          apiVersion: 'v1',
          resource: audience,
          subresource: '',
          name: account,
          resourceRequest: true,
          path: '',
        },
        access.arrivedAt,
      )
    ).allowed
  refuse(await admitNodeTokenRequest(node, namespace, account, request, pod, mayRequest))
}
