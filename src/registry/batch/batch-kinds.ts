// The batch/v1 kinds as rows of the kind table, with the discovery data a 1.33 cluster serves for them (CronJobs' short
// name cj, both in the `all` category, storage version hashes from its discovery), /status served generically, and
// Jobs orphaning their pods when a delete names no propagation.
import { CronJob, Job } from '../../schema/batch'
import type { ResourceDef } from '../resource'
import { cronJobStrategy } from '../strategies/batch/cronjob-strategy'
import { jobStrategy } from '../strategies/batch/job-strategy'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

/** batch/v1 Jobs orphan their pods unless told otherwise (kube's DefaultGarbageCollectionPolicy), and say so. */
const ORPHAN_PODS: ResourceDef['defaultPropagation'] = {
  policy: 'Orphan',
  warning:
    'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
}

function row(
  kind: string,
  plural: string,
  shortNames: string[],
  schema: ResourceDef['schema'],
  strategy: unknown,
  storageVersionHash: string,
  extra: Partial<ResourceDef> = {},
): ResourceDef {
  return {
    group: 'batch',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames,
    categories: ['all'],
    namespaced: true,
    verbs: [...VERBS],
    schema,
    strategy: strategy as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash,
    subresources: [{ name: 'status', kind, verbs: ['get', 'patch', 'update'] }],
    ...extra,
  }
}

/** CronJobs and Jobs, in kube's discovery order (alphabetical by resource). */
export function batchResourceRows(): ResourceDef[] {
  return [
    row('CronJob', 'cronjobs', ['cj'], CronJob, cronJobStrategy, 'sd5LIXh4Fjs='),
    row('Job', 'jobs', [], Job, jobStrategy, 'mudhfqk/qZY=', { defaultPropagation: ORPHAN_PODS }),
  ]
}
