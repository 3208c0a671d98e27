// core/v1 Events run the shared conformance suite.
import { conformanceSuite } from './cases'

/** The test's namespace: an Event without an eventTime must be in its involved object's (legacyValidateEvent). */
let namespace = ''

conformanceSuite({
  plural: 'events',
  kind: 'Event',
  namespaced: true,
  enterScope: (ns) => {
    namespace = ns
  },
  valid: (name, labels = {}) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, labels },
    involvedObject: { kind: 'Pod', name: 'somebody', namespace, apiVersion: 'v1' },
    reason: 'Tested',
    message: 'first',
    type: 'Normal',
  }),
  invalid: (name) => ({
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'x', namespace: 'elsewhere' },
    },
    field: 'involvedObject.namespace',
    reason: 'FieldValueInvalid',
  }),
  mutate: (obj) => ({ ...structuredClone(obj), message: obj.message === 'second' ? 'third' : 'second' }),
  mutated: (obj) => obj.message !== 'first',
  deleteAnswersStatus: true,
  unknownField: {
    path: 'involvedObject.foo',
    add: (obj) => ({ ...obj, involvedObject: { ...obj.involvedObject, foo: 'bar' } }),
  },
})
