// core/v1 Events run the shared conformance suite.
import { conformanceSuite } from './cases'

conformanceSuite({
  plural: 'events',
  kind: 'Event',
  namespaced: true,
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, labels },
    involvedObject: { kind: 'Pod', name: 'somebody', apiVersion: 'v1' },
    reason: 'Tested',
    message: 'first',
    type: 'Normal',
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'x' },
      type: 'Odd',
    },
    field: 'type',
    reason: 'FieldValueNotSupported',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), message: obj.message === 'second' ? 'third' : 'second' }),
  mutated: (obj) => obj.message !== 'first',
  deleteAnswersStatus: true,
  unknownField: {
    path: 'involvedObject.foo',
    add: (obj) => ({ ...obj, involvedObject: { ...obj.involvedObject, foo: 'bar' } }),
  },
})
