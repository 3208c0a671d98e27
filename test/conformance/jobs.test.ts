// batch/v1 Jobs and CronJobs run the shared conformance suite: suspended, so no pods run (the Job controller only
// records the Suspended condition, the CronJob controller nothing).
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

const podTemplate = {
  spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['true'] }] },
}

conformanceSuite({
  plural: 'jobs',
  kind: 'Job',
  group: 'batch',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels },
    spec: { suspend: true, template: podTemplate },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: { suspend: true, parallelism: -1, template: podTemplate },
    },
    field: 'spec.parallelism',
    reason: 'FieldValueInvalid',
  }),
  // A label, not the spec: most of a Job's spec is immutable, and a change would bump the generation.
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.metadata.labels = { ...copy.metadata.labels, mutated: copy.metadata.labels?.mutated === 'a' ? 'b' : 'a' }
    return copy
  },
  mutated: (obj) => obj.metadata.labels?.mutated !== undefined,
  // A DELETE naming no propagation orphans the pods (batch/v1's default): the orphan finalizer holds the Job until the
  // garbage collector has released its pods, so the DELETE answers the Job (kube answers a deletion it could not
  // finish with the object). Test names are unique, so the cluster-wide list finds it.
  awaitGone: async (name) => {
    await waitFor(`${name} to be gone`, async () => {
      const l = await req('GET', `/apis/batch/v1/jobs?fieldSelector=metadata.name%3D${name}`)
      return l.json?.items?.length === 0 ? true : undefined
    })
  },
  // The Job controller records the Suspended condition right after the create.
  settle: (path) =>
    waitFor(`${path} to settle`, async () => {
      const g = await req('GET', path)
      return (g.json?.status?.conditions ?? []).some((c: any) => c.type === 'Suspended') ? g.json : undefined
    }),
})

conformanceSuite({
  plural: 'cronjobs',
  kind: 'CronJob',
  group: 'batch',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, labels },
    spec: { schedule: '@yearly', suspend: true, jobTemplate: { spec: { template: podTemplate } } },
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name },
      spec: { schedule: 'every day', jobTemplate: { spec: { template: podTemplate } } },
    },
    field: 'spec.schedule',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.spec.schedule = copy.spec.schedule === '@yearly' ? '@monthly' : '@yearly'
    return copy
  },
  mutated: (obj) => obj.spec.schedule === '@monthly',
  deleteAnswersStatus: true,
})
