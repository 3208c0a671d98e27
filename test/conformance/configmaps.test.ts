// ConfigMaps run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  deleteAnswersStatus: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data: { 'app.properties': 'a=1' },
  }),
  invalid: (name) => ({
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'bad key': 'x' } },
    field: 'data[bad key]',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), data: { ...obj.data, extra: 'yes' } }),
  mutated: (obj) => obj.data?.extra === 'yes',
  unknownField: { path: 'foo', add: (obj) => ({ ...obj, foo: 'bar' }) },
})
