// Create/update body decoding, message for message against kube-apiserver 1.33: rest.go transformDecodeError and
// summarizeData, the json serializer's Decode (meta.go Interpret, gvkWithDefaults, the scheme's notRegisteredErr,
// converter.go's unknown conversion), and sigs.k8s.io/json's type errors with their error context.
import { describe, expect, it } from 'vitest'
import { decodeObject, type DecodeTarget } from '../../../src/registry/decode'
import { StatusError } from '../../../src/registry/status'
import { Pod } from '../../../src/schema/pod'
import { Service } from '../../../src/schema/service'
import { ReplicationController } from '../../../src/schema/replication-controller'
import { Event } from '../../../src/schema/event'
import { EndpointSlice } from '../../../src/schema/endpoint-slice'
import { DeleteOptions } from '../../../src/schema/meta'

const POD: DecodeTarget = { schema: Pod, group: '', version: 'v1', kind: 'Pod' }
const SVC: DecodeTarget = { schema: Service, group: '', version: 'v1', kind: 'Service' }
const RC: DecodeTarget = { schema: ReplicationController, group: '', version: 'v1', kind: 'ReplicationController' }
const EVENT: DecodeTarget = { schema: Event, group: '', version: 'v1', kind: 'Event' }
const SLICE: DecodeTarget = { schema: EndpointSlice, group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' }

const UNRECOGNIZED = 'the object provided is unrecognized (must be of type Pod): '
const PARSE = `${UNRECOGNIZED}couldn't get version/kind; json parse error: `
const FIND_KIND =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'
const AS_POD = 'Pod in version "v1" cannot be handled as a Pod: '
const SCHEME = 'in scheme "pkg/api/legacyscheme/scheme.go:30"'
const QUANTITY = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

/** The 400 message a body gets, or 'OK'. */
function decode(target: DecodeTarget, text: string, format: 'json' | 'yaml' = 'json'): string {
  try {
    decodeObject(target, { format, text }, 'Strict')
    return 'OK'
  } catch (e) {
    if (!(e instanceof StatusError)) throw e
    expect(e.status.code).toBe(400)
    expect(e.status.reason).toBe('BadRequest')
    return e.status.message!
  }
}

const CASES: [what: string, target: DecodeTarget, body: string, message: string][] = [
  // Bodies whose apiVersion and kind cannot be read: Go's syntax errors, then a summary of the body.
  ['empty body', POD, '', `${PARSE}unexpected end of JSON input (<empty>)`],
  ['cut short', POD, '{"metadata":', `${PARSE}unexpected end of JSON input ({"metadata":)`],
  [
    'trailing comma',
    POD,
    '{"a":1,}',
    `${PARSE}invalid character '}' looking for beginning of object key string ({"a":1,})`,
  ],
  ['missing colon', POD, '{"a" 1}', `${PARSE}invalid character '1' after object key ({"a" 1})`],
  [
    'not JSON (summary in hex)',
    POD,
    'not json',
    `${PARSE}invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)`,
  ],
  [
    'single quotes',
    POD,
    "{'a':1}",
    `${PARSE}invalid character '\\'' looking for beginning of object key string ({'a':1})`,
  ],
  ['a byte order mark', POD, '\uFEFF{}', `${PARSE}invalid character 'ï' looking for beginning of value (efbbbf7b7d)`],
  [
    'a long body is summarized to 30 bytes',
    POD,
    '{"metadata":{"name":"abcdefghijklmnopqrstuvwxyz"},',
    `${PARSE}unexpected end of JSON input ({"metadata":{"name":"abcdefghi ...)`,
  ],
  ['an array', POD, '[]', `${PARSE}json: cannot unmarshal array into Go value of type ${FIND_KIND} (5b5d)`],
  ['a string', POD, '"pod"', `${PARSE}json: cannot unmarshal string into Go value of type ${FIND_KIND} (22706f6422)`],
  ['a number', POD, '42', `${PARSE}json: cannot unmarshal number into Go value of type ${FIND_KIND} (3432)`],
  ['a boolean', POD, 'true', `${PARSE}json: cannot unmarshal bool into Go value of type ${FIND_KIND} (74727565)`],
  [
    'kind a number',
    POD,
    '{"kind":5}',
    `${PARSE}json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})`,
  ],
  [
    'apiVersion an object',
    POD,
    '{"apiVersion":{}}',
    `${PARSE}json: cannot unmarshal object into Go struct field .apiVersion of type string ({"apiVersion":{}})`,
  ],
  [
    'kind read case-insensitively',
    POD,
    '{"KIND":[]}',
    `${PARSE}json: cannot unmarshal array into Go struct field .kind of type string ({"KIND":[]})`,
  ],
  [
    'an apiVersion with two slashes',
    POD,
    '{"apiVersion":"a/b/c"}',
    `${UNRECOGNIZED}unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})`,
  ],
  // Readable, but not a Pod.
  [
    'apiVersion v2',
    POD,
    '{"apiVersion":"v2","kind":"Pod"}',
    `Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" ${SCHEME}`,
  ],
  [
    'apiVersion v2 without kind',
    POD,
    '{"apiVersion":"v2"}',
    `Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" ${SCHEME}`,
  ],
  [
    'kind in lower case',
    POD,
    '{"kind":"pod"}',
    `pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" ${SCHEME}`,
  ],
  [
    'an unknown kind',
    POD,
    '{"apiVersion":"v1","kind":"Widget"}',
    `Widget in version "v1" cannot be handled as a Pod: no kind "Widget" is registered for version "v1" ${SCHEME}`,
  ],
  [
    'a group the scheme lacks',
    POD,
    '{"apiVersion":"example.com/v1","kind":"Pod"}',
    `Pod in version "v1" cannot be handled as a Pod: no kind "Pod" is registered for version "example.com/v1" ${SCHEME}`,
  ],
  [
    'a Service posted to pods',
    POD,
    '{"apiVersion":"v1","kind":"Service"}',
    'Service in version "v1" cannot be handled as a Pod: converting (v1.Service) to (core.Pod): unknown conversion',
  ],
  [
    'a Secret posted to pods',
    POD,
    '{"apiVersion":"v1","kind":"Secret"}',
    'Secret in version "v1" cannot be handled as a Pod: converting (v1.Secret) to (core.Pod): unknown conversion',
  ],
  [
    'a Deployment posted to pods',
    POD,
    '{"apiVersion":"apps/v1","kind":"Deployment"}',
    'Deployment in version "v1" cannot be handled as a Pod: converting (v1.Deployment) to (core.Pod): unknown conversion',
  ],
  [
    'a Pod posted to endpointslices',
    SLICE,
    '{"apiVersion":"v1","kind":"Pod"}',
    'Pod in version "v1" cannot be handled as a EndpointSlice: converting (v1.Pod) to (discovery.EndpointSlice): unknown conversion',
  ],
  [
    'a Service of the wrong shape posted to pods fails on its own type first',
    POD,
    '{"apiVersion":"v1","kind":"Service","spec":{"ports":"x"}}',
    'Service in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort',
  ],
  [
    'a group without its version',
    POD,
    '{"apiVersion":"apps/"}',
    `Pod in version "" cannot be handled as a Pod: Object 'apiVersion' is missing in '{"apiVersion":"apps/"}'`,
  ],
  [
    'events.k8s.io Event posted to core events',
    EVENT,
    '{"apiVersion":"events.k8s.io/v1","kind":"Event"}',
    'the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)',
  ],
  [
    'an older EndpointSlice version',
    SLICE,
    '{"apiVersion":"discovery.k8s.io/v1beta1","kind":"EndpointSlice"}',
    'the API version in the data (discovery.k8s.io/v1beta1) does not match the expected API version (discovery.k8s.io/v1)',
  ],
  // Type errors: the innermost struct, the JSON path without indices, the Go type.
  [
    'metadata a string',
    POD,
    '{"metadata":"x"}',
    `${AS_POD}json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta`,
  ],
  [
    'metadata an array',
    POD,
    '{"metadata":[]}',
    `${AS_POD}json: cannot unmarshal array into Go struct field Pod.metadata of type v1.ObjectMeta`,
  ],
  [
    'a name a number',
    POD,
    '{"metadata":{"name":42}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string`,
  ],
  [
    'a label value a number',
    POD,
    '{"metadata":{"labels":{"a":1}}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`,
  ],
  [
    'labels an array',
    POD,
    '{"metadata":{"labels":[]}}',
    `${AS_POD}json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string`,
  ],
  [
    'a uid a number',
    POD,
    '{"metadata":{"uid":7}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID`,
  ],
  [
    'spec a string',
    POD,
    '{"spec":"s"}',
    `${AS_POD}json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec`,
  ],
  [
    'containers a string',
    POD,
    '{"spec":{"containers":"x"}}',
    `${AS_POD}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
  ],
  [
    'a container a string',
    POD,
    '{"spec":{"containers":["x"]}}',
    `${AS_POD}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container`,
  ],
  [
    "a container's name a number",
    POD,
    '{"spec":{"containers":[{"name":5}]}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string`,
  ],
  [
    'a named string type',
    POD,
    '{"spec":{"restartPolicy":1}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy`,
  ],
  [
    'a port out of int32',
    POD,
    '{"spec":{"containers":[{"name":"c","ports":[{"containerPort":99999999999}]}]}}',
    `${AS_POD}json: cannot unmarshal number 99999999999 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`,
  ],
  [
    'a bool where a string goes, deep',
    POD,
    '{"spec":{"containers":[{"name":"c","env":[{"name":true}]}]}}',
    `${AS_POD}json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.name of type string`,
  ],
  [
    'a status phase an object',
    POD,
    '{"status":{"phase":{}}}',
    `${AS_POD}json: cannot unmarshal object into Go struct field PodStatus.status.phase of type v1.PodPhase`,
  ],
  [
    'replicas 1.5',
    RC,
    '{"spec":{"replicas":1.5}}',
    'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal number 1.5 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
  ],
  [
    'replicas 1.0 (Go reads ints from the text)',
    RC,
    '{"spec":{"replicas":1.0}}',
    'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal number 1.0 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
  ],
  [
    'replicas 1e3',
    RC,
    '{"spec":{"replicas":1e3}}',
    'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal number 1e3 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
  ],
  [
    'replicas a string',
    RC,
    '{"spec":{"replicas":"2"}}',
    'ReplicationController in version "v1" cannot be handled as a ReplicationController: json: cannot unmarshal string into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
  ],
  [
    'the first error in document order',
    POD,
    '{"spec":{"hostname":1},"metadata":"x"}',
    `${AS_POD}json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string`,
  ],
  // Custom unmarshalers: their own messages, and they stop decoding (winning over an earlier type error).
  [
    'a bad quantity',
    POD,
    '{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"lots"}}}]}}',
    `${AS_POD}${QUANTITY}`,
  ],
  [
    'a quantity that is a bool',
    POD,
    '{"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":true}}}]}}',
    `${AS_POD}${QUANTITY}`,
  ],
  [
    'an IntOrString bool',
    SVC,
    '{"spec":{"ports":[{"port":80,"targetPort":true}]}}',
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'an IntOrString 1.5',
    SVC,
    '{"spec":{"ports":[{"port":80,"targetPort":1.5}]}}',
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'an IntOrString object',
    SVC,
    '{"spec":{"ports":[{"port":80,"targetPort":{}}]}}',
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'a custom error beats an earlier type error',
    SVC,
    '{"metadata":{"name":1},"spec":{"ports":[{"targetPort":true}]}}',
    'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'a time that is not RFC 3339',
    POD,
    '{"metadata":{"creationTimestamp":"yesterday"}}',
    `${AS_POD}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
  ],
  [
    'a time out of range',
    POD,
    '{"metadata":{"creationTimestamp":"2024-13-01T00:00:00Z"}}',
    `${AS_POD}parsing time "2024-13-01T00:00:00Z": month out of range`,
  ],
  [
    'a time that is a number',
    POD,
    '{"metadata":{"creationTimestamp":5}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string`,
  ],
  // Strict decoding, after everything else.
  ['an unknown field (Strict)', POD, '{"spec":{"foo":1}}', `${AS_POD}strict decoding error: unknown field "spec.foo"`],
  [
    'a type error wins over strict errors',
    POD,
    '{"spec":{"foo":1,"hostname":1}}',
    `${AS_POD}json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string`,
  ],
]

describe('body decoding: kube-apiserver messages', () => {
  it.each(CASES)('%s', (_what, target, body, message) => {
    expect(decode(target, body)).toBe(message)
  })

  it('YAML bodies are converted to JSON first: errors are the same, the summary is of the YAML', () => {
    expect(decode(POD, 'metadata: x')).toMatch(/^the object provided is unrecognized/)
    expect(decode(POD, 'metadata: x', 'yaml')).toBe(
      `${AS_POD}json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta`,
    )
    expect(decode(POD, 'apiVersion: v2\nkind: Pod', 'yaml')).toBe(
      `Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" ${SCHEME}`,
    )
    expect(decode(POD, '- a\n- b', 'yaml')).toBe(
      `${PARSE}json: cannot unmarshal array into Go value of type ${FIND_KIND} (2d20610a2d2062)`,
    )
    expect(decode(POD, 'metadata: [', 'yaml')).toMatch(
      /^the object provided is unrecognized \(must be of type Pod\): error converting YAML to JSON: yaml: .* \(6d657461646174613a205b\)$/,
    )
  })
})

describe('body decoding: what Go makes of a body that decodes', () => {
  const value = (target: DecodeTarget, text: string) =>
    decodeObject<Record<string, any>>(target, { format: 'json', text }, 'Warn')

  it("missing apiVersion and kind are the endpoint's; null is an empty object", () => {
    expect(value(POD, '{"metadata":{"name":"p"}}').value).toEqual({ metadata: { name: 'p' } })
    expect(value(POD, 'null').value).toEqual({})
  })

  it('a null field is absent, so a container named null reaches validation with the name Go leaves: empty', () => {
    const { value: pod } = value(POD, '{"spec":{"containers":[{"name":null,"image":"x"}]}}')
    expect(pod.spec.containers).toEqual([{ image: 'x', name: '' }])
  })

  it('null list elements and map values are zero values; absent value fields hold theirs', () => {
    const { value: pod } = value(
      POD,
      '{"metadata":{"labels":{"a":null},"ownerReferences":[{}]},"spec":{"containers":[null],"nodeSelector":{"k":null}}}',
    )
    expect(pod.metadata.labels).toEqual({ a: '' })
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: '', kind: '', name: '', uid: '' }])
    expect(pod.spec.containers).toEqual([{ name: '' }])
    expect(pod.spec.nodeSelector).toEqual({ k: '' })
  })

  it('unknown fields are dropped and reported, duplicates reported (Warn)', () => {
    const { value: pod, warnings } = value(
      POD,
      '{"metadata":{"name":"a","name":"b"},"spec":{"foo":1,"containers":[{"name":"c","bar":2}]}}',
    )
    expect(pod.spec).toEqual({ containers: [{ name: 'c' }] })
    expect(warnings).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "spec.foo"',
      'unknown field "spec.containers[0].bar"',
    ])
  })

  it('numbers Go reads from their text keep their values', () => {
    expect(
      value(
        POD,
        '{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":0.5}}}],"terminationGracePeriodSeconds":30}}',
      ).value.spec,
    ).toEqual({
      containers: [{ name: 'c', resources: { limits: { cpu: 0.5 } } }],
      terminationGracePeriodSeconds: 30,
    })
  })

  it('DeleteOptions from any group version is the meta/v1 type', () => {
    const target: DecodeTarget = { schema: DeleteOptions, group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }
    for (const apiVersion of ['v1', 'meta.k8s.io/v1', 'apps/v1']) {
      expect(
        decodeObject(
          target,
          { format: 'json', text: `{"apiVersion":"${apiVersion}","kind":"DeleteOptions","gracePeriodSeconds":0}` },
          'Ignore',
        ).value,
      ).toMatchObject({ gracePeriodSeconds: 0 })
    }
  })
})
