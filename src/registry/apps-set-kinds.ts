// The apps/v1 kinds the daemon set and stateful set controllers own, as rows of the kind table, with the discovery data
// a 1.33 cluster serves for them: ControllerRevisions (their history), DaemonSets (ds, /status) and StatefulSets
// (sts, /scale and /status); storage version hashes as kube computes them.
import { ControllerRevision } from '../schema/controller-revision'
import { DaemonSet } from '../schema/daemon-set'
import { StatefulSet } from '../schema/stateful-set'
import type { ResourceDef, SubresourceDef } from './resource'
import { controllerRevisionStrategy } from './strategies/apps/controller-revision'
import { daemonSetStrategy } from './strategies/apps/daemon-set'
import { statefulSetStrategy } from './strategies/apps/stateful-set'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
const SCALE: SubresourceDef = {
  name: 'scale',
  kind: 'Scale',
  group: 'autoscaling',
  version: 'v1',
  verbs: ['get', 'patch', 'update'],
}

function appsRow(
  kind: string,
  shortNames: string[],
  schema: ResourceDef['schema'],
  strategy: unknown,
  storageVersionHash: string,
  subresources: SubresourceDef[],
): ResourceDef {
  return {
    group: 'apps',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural: `${kind.toLowerCase()}s`,
    singular: kind.toLowerCase(),
    shortNames,
    categories: shortNames.length ? ['all'] : [],
    namespaced: true,
    verbs: [...VERBS],
    schema,
    strategy: strategy as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash,
    subresources,
  }
}

export function appsSetResourceRows(): ResourceDef[] {
  return [
    appsRow('ControllerRevision', [], ControllerRevision, controllerRevisionStrategy, '85nkx63pcBU=', []),
    appsRow('DaemonSet', ['ds'], DaemonSet, daemonSetStrategy, 'dd7pWHUlMKQ=', [
      { name: 'status', kind: 'DaemonSet', verbs: ['get', 'patch', 'update'] },
    ]),
    appsRow('StatefulSet', ['sts'], StatefulSet, statefulSetStrategy, 'H+vl74LkKdo=', [
      SCALE,
      { name: 'status', kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] },
    ]),
  ]
}
