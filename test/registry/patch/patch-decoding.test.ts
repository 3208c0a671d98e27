// Patches whose result is not an object of the kind, message for message against kube-apiserver 1.33
// (handlers/patch.go): JSON and merge patches decode the patched JSON (evanphx/json-patch's bytes) and answer 422
// `patch: Invalid value: "<patched JSON>": <decoder error>` (the document's top level always re-marshalled, so its
// keys sorted; untouched parts in kube's encoding, Go's struct order); strategic merge patches go through the unstructured
// converter and quote the patch as %+v prints it; server-side apply goes through structured-merge-diff.
import { describe, expect, it } from 'vitest'
import { applyPatch, decodeApplied, type PatchType } from '../../../src/registry/patch/apply-patch'
import { resourceByPlural } from '../../../src/registry/resources'
import type { KubeObject } from '../../../src/schema/meta'
import type { FieldValidation } from '../../../src/registry/decode'

const pods = resourceByPlural('pods')!
const rcs = resourceByPlural('replicationcontrollers')!

const pod = (): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], restartPolicy: 'Always' },
  status: { phase: 'Pending' },
})
const rc = (): KubeObject => ({
  kind: 'ReplicationController',
  apiVersion: 'v1',
  metadata: { name: 'r', namespace: 'ns', uid: 'u' },
  spec: { replicas: 1, selector: { a: 'b' } },
})

const q = (s: string) => JSON.stringify(s)
/** The 422 kube answers: NewInvalid with an empty GroupKind and name, one cause on the field "patch". */
const invalidPatch = (value: string, detail: string) => ` "" is invalid: patch: Invalid value: ${q(value)}: ${detail}`

function outcome(def = pods, current = pod(), type: PatchType, body: string, validation: FieldValidation = 'Warn') {
  const r = applyPatch(def, current, type, body, validation)
  return r.ok
    ? { code: 200, message: 'OK', details: undefined, warnings: r.value.warnings }
    : { code: r.status.code, message: r.status.message, details: r.status.details, reason: r.status.reason }
}

const PATCHED_CONTAINERS_X =
  '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":"x","restartPolicy":"Always"},"status":{"phase":"Pending"}}'
const CONTAINERS_X = 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'

describe('merge and JSON patches: the patched object is decoded', () => {
  const CASES: [what: string, type: PatchType, body: string, patched: string, detail: string][] = [
    ['merge: containers a string', 'merge', '{"spec":{"containers":"x"}}', PATCHED_CONTAINERS_X, CONTAINERS_X],
    [
      'merge: a label value a number (the merged containers come out with sorted keys)',
      'merge',
      '{"metadata":{"labels":{"a":1}}}',
      '{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":1,"app":"web"},"name":"p","namespace":"ns","uid":"u1"},"spec":{"containers":[{"name":"c","image":"nginx:1.25"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    [
      'merge: apiVersion v2',
      'merge',
      '{"apiVersion":"v2"}',
      '{"apiVersion":"v2","kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.25"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      'no kind "Pod" is registered for version "v2" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'merge: kind Service',
      'merge',
      '{"kind":"Service"}',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.25"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      'converting (v1.Service) to (core.Pod): unknown conversion',
    ],
    [
      'json: a container name a number (the container the operation reached comes out sorted)',
      'json',
      '[{"op":"replace","path":"/spec/containers/0/name","value":5}]',
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25","name":5}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      'json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string',
    ],
    [
      'json: a value added whole keeps its own order',
      'json',
      '[{"op":"add","path":"/spec/containers/-","value":{"name":"d","image":"x","ports":"80"}}]',
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.25"},{"name":"d","image":"x","ports":"80"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      'json: cannot unmarshal string into Go struct field Container.spec.containers.ports of type []v1.ContainerPort',
    ],
    [
      'json: kind a number',
      'json',
      '[{"op":"replace","path":"/kind","value":5}]',
      '{"apiVersion":"v1","kind":5,"metadata":{"name":"p","namespace":"ns","uid":"u1","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.25"}],"restartPolicy":"Always"},"status":{"phase":"Pending"}}',
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    ],
  ]

  it.each(CASES)('%s', (_what, type, body, patched, detail) => {
    const r = outcome(pods, pod(), type, body)
    expect(r.code).toBe(422)
    expect(r.reason).toBe('Invalid')
    expect(r.message).toBe(invalidPatch(patched, detail))
    expect(r.details).toEqual({
      causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${q(patched)}: ${detail}`, field: 'patch' }],
    })
  })

  it('replicas 1.5 on a replication controller', () => {
    const r = outcome(rcs, rc(), 'merge', '{"spec":{"replicas":1.5}}')
    expect(r.message).toBe(
      invalidPatch(
        '{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"r","namespace":"ns","uid":"u"},"spec":{"replicas":1.5,"selector":{"a":"b"}}}',
        'json: cannot unmarshal number 1.5 into Go struct field ReplicationControllerSpec.spec.replicas of type int32',
      ),
    )
  })

  it('strict decoding errors of the patched object are the same 422 (Strict) or warnings (Warn)', () => {
    const strict = outcome(pods, pod(), 'merge', '{"spec":{"foo":1}}', 'Strict')
    expect(strict.code).toBe(422)
    expect(strict.message).toMatch(
      /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "spec.foo"$/,
    )
    expect(outcome(pods, pod(), 'merge', '{"spec":{"foo":1}}', 'Warn').warnings).toEqual(['unknown field "spec.foo"'])
    expect(
      outcome(pods, pod(), 'json', '[{"op":"add","path":"/metadata/labels/x","value":"y","extra":1}]', 'Warn').warnings,
    ).toEqual(['json patch unknown field "[0].extra"'])
  })
})

describe('patch bodies: what each patch type says about a body it cannot read', () => {
  const CASES: [
    what: string,
    type: PatchType,
    body: string,
    validation: FieldValidation,
    code: number,
    message: string,
  ][] = [
    ['merge, not JSON', 'merge', '{', 'Warn', 400, 'error decoding patch: unexpected end of JSON input'],
    ['merge, not JSON (Ignore)', 'merge', '{', 'Ignore', 400, 'Invalid JSON Patch'],
    [
      'merge, an array',
      'merge',
      '[1]',
      'Warn',
      400,
      'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
    ],
    ['merge, null', 'merge', 'null', 'Warn', 400, 'Invalid JSON Patch'],
    [
      'json, an object',
      'json',
      '{"op":"add"}',
      'Strict',
      400,
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    ],
    [
      'json, an object (Ignore)',
      'json',
      '{"op":"add"}',
      'Ignore',
      400,
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    [
      'json, an operation a string (Ignore)',
      'json',
      '["add"]',
      'Ignore',
      400,
      'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    ],
    [
      'json, op a number',
      'json',
      '[{"op":5}]',
      'Warn',
      400,
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
    ],
    ['json, not JSON (Ignore)', 'json', '[{"op":', 'Ignore', 400, 'unexpected end of JSON input'],
    ['strategic, not JSON', 'strategic', '{"a" 1}', 'Warn', 400, "invalid character '1' after object key"],
    [
      'strategic, an array',
      'strategic',
      '[]',
      'Strict',
      400,
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    ],
  ]
  it.each(CASES)('%s', (_what, type, body, validation, code, message) => {
    const r = outcome(pods, pod(), type, body, validation)
    expect([r.code, r.message]).toEqual([code, message])
  })
})

describe('strategic merge patches: the unstructured converter', () => {
  const CASES: [what: string, body: string, printed: string, detail: string][] = [
    ['labels a string', '{"metadata":{"labels":"x"}}', 'map[metadata:map[labels:x]]', 'cannot restore map from string'],
    [
      'containers a string',
      '{"spec":{"containers":"x"}}',
      'map[spec:map[containers:x]]',
      'cannot restore slice from string',
    ],
    ['spec a string', '{"spec":"x"}', 'map[spec:x]', 'cannot restore struct from: string'],
    ['spec a number', '{"spec":5}', 'map[spec:5]', 'cannot restore struct from: int64'],
    [
      'a container image a number',
      '{"spec":{"containers":[{"name":"c","image":5}]}}',
      'map[spec:map[containers:[map[image:5 name:c]]]]',
      'cannot convert int64 to string',
    ],
    [
      'a named string type a number',
      '{"spec":{"restartPolicy":1}}',
      'map[spec:map[restartPolicy:1]]',
      'cannot convert int64 to v1.RestartPolicy',
    ],
    [
      'an annotation a list',
      '{"metadata":{"annotations":{"foo":["bar"]}}}',
      'map[metadata:map[annotations:map[foo:[bar]]]]',
      'unrecognized type: string',
    ],
    [
      'a float where an int goes',
      '{"spec":{"activeDeadlineSeconds":1.5}}',
      'map[spec:map[activeDeadlineSeconds:1.5]]',
      'cannot convert float64 to int64',
    ],
    [
      'a string where an int goes',
      '{"spec":{"activeDeadlineSeconds":"5"}}',
      'map[spec:map[activeDeadlineSeconds:5]]',
      'unrecognized type: int64',
    ],
    [
      'a bad time',
      '{"metadata":{"creationTimestamp":"x"}}',
      'map[metadata:map[creationTimestamp:x]]',
      'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"',
    ],
    [
      'a bad quantity',
      '{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"lots"}}}]}}',
      'map[spec:map[containers:[map[name:c resources:map[limits:map[cpu:lots]]]]]]',
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
    [
      'big and small numbers as %v prints them',
      '{"metadata":{"labels":{"a":1000000.5,"b":1e21,"c":true,"d":null}}}',
      'map[metadata:map[labels:map[a:1.0000005e+06 b:1e+21 c:true d:<nil>]]]',
      'unrecognized type: string',
    ],
  ]
  it.each(CASES)('%s', (_what, body, printed, detail) => {
    const r = outcome(pods, pod(), 'strategic', body)
    expect(r.code).toBe(422)
    expect(r.message).toBe(invalidPatch(printed, detail))
  })

  it('replicas 1.5 on a replication controller', () => {
    expect(outcome(rcs, rc(), 'strategic', '{"spec":{"replicas":1.5}}').message).toBe(
      invalidPatch('map[spec:map[replicas:1.5]]', 'cannot convert float64 to int32'),
    )
  })

  it('unknown fields: sorted, 422 with the printed patch (Strict), warnings (Warn)', () => {
    const body = '{"spec":{"zeta":1,"containers":[{"name":"c","bar":2}]}}'
    expect(outcome(pods, pod(), 'strategic', body, 'Strict').message).toBe(
      invalidPatch(
        'map[spec:map[containers:[map[bar:2 name:c]] zeta:1]]',
        'strict decoding error: unknown field "spec.containers[0].bar", unknown field "spec.zeta"',
      ),
    )
    expect(outcome(pods, pod(), 'strategic', body, 'Warn').warnings).toEqual([
      'unknown field "spec.containers[0].bar"',
      'unknown field "spec.zeta"',
    ])
  })
})

describe('server-side apply: the applied configuration', () => {
  const applied = (body: string, def = pods) => {
    const r = decodeApplied(def, body, 'Warn')
    return r.ok ? 'OK' : `${r.status.code} ${r.status.message}`
  }
  const TYPED = 'failed to create typed patch object (ns/p; /v1, Kind=Pod): '
  const CASES: [what: string, body: string, message: string][] = [
    [
      'containers a string',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: x}',
      `400 ${TYPED}.spec.containers: expected list, got &{x}`,
    ],
    [
      'a label a number',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns, labels: {a: 1}}',
      `400 ${TYPED}.metadata.labels.a: expected string, got &value.valueUnstructured{Value:1}`,
    ],
    [
      'a container image a number',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: [{name: c, image: 5}]}',
      `400 ${TYPED}.spec.containers[name="c"].image: expected string, got &value.valueUnstructured{Value:5}`,
    ],
    [
      'metadata a list',
      'apiVersion: v1\nkind: Pod\nmetadata: [a]',
      '400 failed to create typed patch object (/; /v1, Kind=Pod): .metadata: expected map, got &{[a]}',
    ],
    [
      'a bool where a number goes',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {activeDeadlineSeconds: "5"}',
      `400 ${TYPED}.spec.activeDeadlineSeconds: expected numeric (int or float), got string`,
    ],
    [
      'a container that is not a map',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: [x]}',
      `400 ${TYPED}.spec.containers: element 0: associative list with keys may not have non-map elements`,
    ],
    [
      'a container without its key',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: [{image: x}]}',
      `400 ${TYPED}.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`,
    ],
    [
      'two errors',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns, labels: {a: 1}}\nspec: {containers: x}',
      `400 ${TYPED}errors:\n  .metadata.labels.a: expected string, got &value.valueUnstructured{Value:1}\n  .spec.containers: expected list, got &{x}`,
    ],
    [
      'replicas 1.5 passes the typed check and fails conversion',
      'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: r, namespace: ns}\nspec: {replicas: 1.5}',
      '400 failed to convert new object (ns/r; /v1, Kind=ReplicationController) to proper version: unable to convert unstructured object to /v1, Kind=ReplicationController: cannot convert float64 to int32',
    ],
    ['apiVersion v2', 'apiVersion: v2\nkind: Pod', '400 invalid object type: /v2, Kind=Pod'],
    ['no apiVersion', 'kind: Pod', '400 invalid object type: /, Kind=Pod'],
    ['kind Service', 'apiVersion: v1\nkind: Service', '400 invalid object type: /v1, Kind=Service'],
    [
      'a list',
      '- a',
      '400 error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
    ],
  ]
  it.each(CASES)('%s', (_what, body, message) => {
    expect(applied(body, body.includes('ReplicationController') ? rcs : pods)).toBe(message)
  })

  it('a well-formed configuration is not filled with zero values (it names only what its manager owns)', () => {
    const r = decodeApplied(
      pods,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}',
      'Warn',
    )
    expect(r.ok && r.value.object.spec).toEqual({
      containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80 }] }],
    })
  })
})
