// LimitRanges run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'limitranges',
  kind: 'LimitRange',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name, labels },
    spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Widget' }] } },
    field: 'spec.limits[0].type',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] } }),
  mutated: (obj) => (obj.spec as { limits: { default: { cpu: string } }[] }).limits[0]!.default.cpu === '1',
  unknownField: { path: 'spec.foo', add: (obj) => ({ ...obj, spec: { ...(obj.spec as object), foo: 'bar' } }) },
})
