// ResourceQuotas run the shared conformance suite. The quota controller writes status.hard and status.used right
// after a create (and after a spec change): the cases wait for that.
import { req, waitFor } from '../helpers'
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'resourcequotas',
  kind: 'ResourceQuota',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, labels },
    spec: { hard: { configmaps: '100' } },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { widgets: '1' } } },
    field: 'spec.hard[widgets]',
    reason: 'FieldValueInvalid',
  }),
  // A label, not the spec: a spec change has the controller write the status right after.
  mutate: (obj) => {
    const copy = structuredClone(obj)
    copy.metadata.labels = { ...copy.metadata.labels, mutated: copy.metadata.labels?.mutated === 'a' ? 'b' : 'a' }
    return copy
  },
  mutated: (obj) => obj.metadata.labels?.mutated !== undefined,
  settle: (path) =>
    waitFor(`${path} to settle`, async () => {
      const g = await req('GET', path)
      return JSON.stringify(g.json?.status?.hard) === JSON.stringify(g.json?.spec?.hard) ? g.json : undefined
    }),
  unknownField: { path: 'spec.foo', add: (obj) => ({ ...obj, spec: { ...(obj.spec as object), foo: 'bar' } }) },
})
