// OpenAPI paths for one resource-table row: the same collection, item, cluster-wide and watch paths routes.ts binds,
// with kube's operationIds (listCoreV1NamespacedPod, ...), x-kubernetes-action, GVK, query parameters and bodies.
// kubectl reads two things here: the PATCH operation's fieldValidation parameter (then it validates server-side)
// and its strategic-merge-patch request body (then client-side apply computes patches from our schemas).
import type { ResourceDef, SubresourceDef } from '../../registry/resource'
import type { Json } from './components'
import { DELETE, DELETE_COLLECTION, LIST, LOG, P, param, WRITE } from './parameters'

/** $refs to the component schemas an operation's bodies use. */
export interface OperationRefs {
  kind: Json
  list: Json
  status: Json
  deleteOptions: Json
  watchEvent: Json
  patch: Json
  /** The schema a subresource's requests and answers carry, if known. */
  subresource: (sub: SubresourceDef) => Json | undefined
}

export const PATCH_CONTENT_TYPES = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
]

/** `Core`, `Apps`, `RbacAuthorization`: the group as kube spells it inside operationIds. */
function groupWord(group: string): string {
  if (group === '') return 'Core'
  return group
    .replace(/\.k8s\.io$/, '')
    .split('.')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
}

/** `/api/v1` or `/apis/<group>/<version>`. */
export const apiPrefix = (def: Pick<ResourceDef, 'group' | 'version'>) =>
  def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`

/** The key of a group-version's document under /openapi/v3: `api/v1` or `apis/<group>/<version>`. */
export const documentKey = (def: Pick<ResourceDef, 'group' | 'version'>) => apiPrefix(def).slice(1)

const content = (schema: Json, types = ['application/json']) => Object.fromEntries(types.map((t) => [t, { schema }]))
const ok = (schema: Json, description = 'OK', types?: string[]) => ({ description, content: content(schema, types) })
const UNAUTHORIZED = { description: 'Unauthorized' }

/** Every path the router serves for one row, keyed by OpenAPI path template. */
export function pathsFor(def: ResourceDef, refs: OperationRefs): Record<string, Json> {
  const has = (v: string) => def.verbs.includes(v as never)
  const gv = `${groupWord(def.group)}${def.version.charAt(0).toUpperCase()}${def.version.slice(1)}`
  const scope = def.namespaced ? 'Namespaced' : ''
  const gvk = { group: def.group, kind: def.kind, version: def.version }
  const word = groupWord(def.group)
  const tags = [`${word.charAt(0).toLowerCase()}${word.slice(1)}_${def.version}`] // core_v1, apps_v1, rbacAuthorization_v1
  const deleted = def.returnDeletedObject ? refs.kind : refs.status

  const op = (
    action: string,
    operationId: string,
    description: string,
    parameters: Json[],
    responses: Json,
    requestBody?: Json,
  ): Json => ({
    description,
    operationId,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: { ...responses, '401': UNAUTHORIZED },
    tags,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  })
  const objectBody = { required: true, content: content(refs.kind, ['application/json', 'application/yaml']) }
  const deleteBody = { content: content(refs.deleteOptions) }
  const patchBody = { required: true, content: content(refs.patch, PATCH_CONTENT_TYPES) }
  const watchResponse = { '200': ok(refs.watchEvent, 'OK', ['application/json', 'application/json;stream=watch']) }

  const nsParam = def.namespaced ? [param('namespace', 'path', 'string', 'Namespace of the objects', true)] : []
  const nameParam = param('name', 'path', 'string', `Name of the ${def.kind}`, true)
  const prefix = apiPrefix(def)
  const collection = def.namespaced ? `${prefix}/namespaces/{namespace}/${def.plural}` : `${prefix}/${def.plural}`
  const watchPrefix = def.namespaced
    ? `${prefix}/watch/namespaces/{namespace}/${def.plural}`
    : `${prefix}/watch/${def.plural}`
  const paths: Record<string, Json> = {}

  paths[collection] = {
    ...(has('list') && {
      get: op('list', `list${gv}${scope}${def.kind}`, `List or watch ${def.plural}`, LIST, { '200': ok(refs.list) }),
    }),
    ...(has('create') && {
      post: op(
        'post',
        `create${gv}${scope}${def.kind}`,
        `Create a ${def.kind}`,
        WRITE,
        {
          '200': ok(refs.kind),
          '201': ok(refs.kind, 'Created'),
          '202': ok(refs.kind, 'Accepted'),
        },
        objectBody,
      ),
    }),
    ...(has('deletecollection') && {
      delete: op(
        'deletecollection',
        `delete${gv}Collection${scope}${def.kind}`,
        `Delete a collection of ${def.plural}`,
        DELETE_COLLECTION,
        {
          '200': ok(refs.status),
        },
        deleteBody,
      ),
    }),
    parameters: [...nsParam, P.pretty],
  }
  // Create-only kinds (the reviews) have no item path at all, as upstream.
  const item: Json = {
    ...(has('get') && {
      get: op('get', `read${gv}${scope}${def.kind}`, `Read the given ${def.kind}`, [], { '200': ok(refs.kind) }),
    }),
    ...(has('update') && {
      put: op(
        'put',
        `replace${gv}${scope}${def.kind}`,
        `Replace the given ${def.kind}`,
        WRITE,
        {
          '200': ok(refs.kind),
          '201': ok(refs.kind, 'Created'),
        },
        objectBody,
      ),
    }),
    ...(has('patch') && {
      patch: op(
        'patch',
        `patch${gv}${scope}${def.kind}`,
        `Partially update the given ${def.kind}`,
        [...WRITE, P.force],
        {
          '200': ok(refs.kind),
          '201': ok(refs.kind, 'Created'),
        },
        patchBody,
      ),
    }),
    ...(has('delete') && {
      delete: op(
        'delete',
        `delete${gv}${scope}${def.kind}`,
        `Delete the given ${def.kind}`,
        DELETE,
        {
          '200': ok(deleted),
          '202': ok(deleted, 'Accepted'),
        },
        deleteBody,
      ),
    }),
    parameters: [nameParam, ...nsParam, P.pretty],
  }
  if (Object.keys(item).length > 1) paths[`${collection}/{name}`] = item
  // Subresources the row declares (the field discovery reads): status, log, binding, eviction, ...
  for (const sub of def.subresources ?? []) {
    const Sub = sub.name.charAt(0).toUpperCase() + sub.name.slice(1)
    const subGvk = { group: sub.group ?? def.group, kind: sub.kind, version: sub.version ?? def.version }
    const subOp = (
      action: string,
      verb: string,
      description: string,
      parameters: Json[],
      responses: Json,
      requestBody?: Json,
    ) => ({
      ...op(action, `${verb}${gv}${scope}${def.kind}${Sub}`, description, parameters, responses, requestBody),
      'x-kubernetes-group-version-kind': subGvk,
    })
    const schema = refs.subresource(sub) ?? { type: 'object', description: `A ${sub.kind}` }
    const serves = (v: string) => sub.verbs.includes(v as never)
    paths[`${collection}/{name}/${sub.name}`] = {
      ...(serves('get') && {
        get:
          sub.name === 'log'
            ? subOp('get', 'read', `Read the log of a ${def.kind}'s container`, LOG, {
                '200': ok({ type: 'string' }, 'OK', ['text/plain']),
              })
            : subOp('get', 'read', `Read the ${sub.name} of the given ${def.kind}`, [], { '200': ok(schema) }),
      }),
      ...(serves('create') && {
        post: subOp(
          'post',
          'create',
          `Create a ${sub.kind} for the given ${def.kind}`,
          WRITE,
          {
            '200': ok(schema),
            '201': ok(schema, 'Created'),
            '202': ok(schema, 'Accepted'),
          },
          { required: true, content: content(schema, ['application/json', 'application/yaml']) },
        ),
      }),
      ...(serves('update') && {
        put: subOp(
          'put',
          'replace',
          `Replace the ${sub.name} of the given ${def.kind}`,
          WRITE,
          {
            '200': ok(schema),
            '201': ok(schema, 'Created'),
          },
          { required: true, content: content(schema, ['application/json', 'application/yaml']) },
        ),
      }),
      ...(serves('patch') && {
        patch: subOp(
          'patch',
          'patch',
          `Partially update the ${sub.name} of the given ${def.kind}`,
          [...WRITE, P.force],
          {
            '200': ok(schema),
            '201': ok(schema, 'Created'),
          },
          patchBody,
        ),
      }),
      parameters: [nameParam, ...nsParam, P.pretty],
    }
  }
  if (def.namespaced && has('list')) {
    paths[`${prefix}/${def.plural}`] = {
      get: op('list', `list${gv}${def.kind}ForAllNamespaces`, `List or watch ${def.plural} in every namespace`, LIST, {
        '200': ok(refs.list),
      }),
      parameters: [P.pretty],
    }
  }
  if (!has('watch')) return paths
  // The deprecated watch paths: kube still serves them, and so does routes.ts.
  paths[watchPrefix] = {
    get: op('watchlist', `watch${gv}${scope}${def.kind}List`, `Watch changes to ${def.plural}`, LIST, watchResponse),
    parameters: [...nsParam, P.pretty],
  }
  paths[`${watchPrefix}/{name}`] = {
    get: op('watch', `watch${gv}${scope}${def.kind}`, `Watch changes to the given ${def.kind}`, LIST, watchResponse),
    parameters: [nameParam, ...nsParam, P.pretty],
  }
  if (def.namespaced) {
    paths[`${prefix}/watch/${def.plural}`] = {
      get: op(
        'watchlist',
        `watch${gv}${def.kind}ListForAllNamespaces`,
        `Watch changes to ${def.plural} in every namespace`,
        LIST,
        watchResponse,
      ),
      parameters: [P.pretty],
    }
  }
  return paths
}
