// The wire encoder: bodies byte for byte as kube-apiserver writes them (Go struct order, sorted map keys, Go's
// escaping, a newline after compact bodies, MarshalIndent for pretty), whatever key order the value arrives in.
import { describe, expect, it } from 'vitest'
import { encodeBody, encodeWatchEvent } from '../../src/registry/wire-json'
import { statuses } from '../../src/registry/status'
import { fieldError } from '../../src/registry/field-errors'

/** The same value with every object's keys in reverse order, at every depth. */
function scrambled<T>(v: T): T {
  if (Array.isArray(v)) return v.map(scrambled) as T
  if (typeof v !== 'object' || v === null) return v
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, scrambled(x)]),
  ) as T
}

const POD_WIRE =
  '{"kind":"Pod","apiVersion":"v1",' +
  '"metadata":{"name":"web","namespace":"ns","uid":"u-1","resourceVersion":"7","creationTimestamp":"2025-01-01T00:00:00Z",' +
  '"labels":{"10":"ten","9":"nine","a":"A","b":"B"},"annotations":{"x.io/a":"1","x.io/b":"2"}},' +
  '"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"name":"http","containerPort":80,"protocol":"TCP"}],' +
  '"resources":{"limits":{"cpu":"1","memory":"1Gi"}},"imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","nodeName":"node-1"},' +
  '"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"podIP":"10.244.1.5"}}'

// The pod above, built in a different order at every level: metadata, spec, containers and status keys reversed
// or shuffled, and map keys inserted out of order (JS puts "9" and "10" first, in numeric order, whatever we do).
const POD_INPUT = {
  status: { podIP: '10.244.1.5', conditions: [{ status: 'True', type: 'Ready' }], phase: 'Running' },
  spec: {
    nodeName: 'node-1',
    restartPolicy: 'Always',
    containers: [
      {
        imagePullPolicy: 'IfNotPresent',
        resources: { limits: { memory: '1Gi', cpu: '1' } },
        ports: [{ protocol: 'TCP', containerPort: 80, name: 'http' }],
        image: 'nginx',
        name: 'c',
      },
    ],
  },
  metadata: {
    annotations: { 'x.io/b': '2', 'x.io/a': '1' },
    labels: { b: 'B', a: 'A', '10': 'ten', '9': 'nine' },
    creationTimestamp: '2025-01-01T00:00:00Z',
    resourceVersion: '7',
    uid: 'u-1',
    namespace: 'ns',
    name: 'web',
  },
  apiVersion: 'v1',
  kind: 'Pod',
}

describe('encodeBody', () => {
  it('writes a NotFound Status in Go field order (details after reason, code last) with a trailing newline', () => {
    expect(encodeBody(statuses.notFound({ resource: 'pods' }, 'web'))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"web\\" not found",' +
        '"reason":"NotFound","details":{"name":"web","kind":"pods"},"code":404}\n',
    )
  })

  it('writes a 422 Invalid Status with its causes, details in StatusDetails order', () => {
    const s = statuses.invalid('Pod', 'web', [
      fieldError.required('spec.containers'),
      fieldError.invalid('metadata.name', 'Web', 'must be lower case'),
    ])
    expect(encodeBody(scrambled(s))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"Pod \\"web\\" is invalid: [spec.containers: Required value, metadata.name: Invalid value: \\"Web\\": must be lower case]",' +
        '"reason":"Invalid","details":{"name":"web","kind":"Pod","causes":[' +
        '{"reason":"FieldValueRequired","message":"Required value","field":"spec.containers"},' +
        '{"reason":"FieldValueInvalid","message":"Invalid value: \\"Web\\": must be lower case","field":"metadata.name"}]},' +
        '"code":422}\n',
    )
  })

  it('writes a pod whose keys arrive in any order as Go does: struct order, map keys sorted byte-wise', () => {
    expect(encodeBody(POD_INPUT)).toBe(POD_WIRE + '\n')
    expect(encodeBody(scrambled(POD_INPUT))).toBe(POD_WIRE + '\n')
  })

  it('sorts map keys as Go sorts strings ("10" < "9" < "a"), which no JS object order can hold', () => {
    const labels = { b: '1', a: '2', '10': '3', '9': '4', 'a-b': '5', A: '6', '-x': '7' }
    const text = encodeBody({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', labels } })
    expect(text).toBe(
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","labels":{"-x":"7","10":"3","9":"4","A":"6","a":"2","a-b":"5","b":"1"}}}\n',
    )
  })

  it('writes a List: TypeMeta, ListMeta in its own order, then items each in their kind order', () => {
    const list = {
      items: [POD_INPUT],
      metadata: { remainingItemCount: 3, continue: 'tok', resourceVersion: '9' },
      apiVersion: 'v1',
      kind: 'PodList',
    }
    expect(encodeBody(list)).toBe(
      `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9","continue":"tok","remainingItemCount":3},"items":[${POD_WIRE}]}\n`,
    )
  })

  it('writes a Table: columns and rows in metav1 order, the row object by its own kind', () => {
    const table = {
      rows: [
        {
          object: {
            metadata: { name: 'web', namespace: 'ns' },
            apiVersion: 'meta.k8s.io/v1',
            kind: 'PartialObjectMetadata',
          },
          conditions: [{ status: 'True', type: 'Completed' }],
          cells: ['web', '1/1'],
        },
      ],
      columnDefinitions: [{ priority: 0, description: 'Name', format: 'name', type: 'string', name: 'Name' }],
      metadata: { resourceVersion: '5' },
      apiVersion: 'meta.k8s.io/v1',
      kind: 'Table',
    }
    expect(encodeBody(table)).toBe(
      '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},' +
        '"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"Name","priority":0}],' +
        '"rows":[{"cells":["web","1/1"],"conditions":[{"type":"Completed","status":"True"}],' +
        '"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"web","namespace":"ns"}}}]}\n',
    )
  })

  it('escapes <, >, &, U+2028 and U+2029 as Go does, and writes a lone surrogate as U+FFFD', () => {
    const s = { ...statuses.badRequest('a <nil> & b > c \u2028\u2029 \ud800 \\ud800'), metadata: {} }
    expect(encodeBody(s)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"a \\u003cnil\\u003e \\u0026 b \\u003e c \\u2028\\u2029 \ufffd \\\\ud800","reason":"BadRequest","code":400}\n',
    )
  })

  it('pretty-prints as json.MarshalIndent: two spaces, empty objects on one line, no trailing newline', () => {
    expect(encodeBody(scrambled(statuses.notFound({ resource: 'pods' }, 'web')), true)).toBe(
      [
        '{',
        '  "kind": "Status",',
        '  "apiVersion": "v1",',
        '  "metadata": {},',
        '  "status": "Failure",',
        '  "message": "pods \\"web\\" not found",',
        '  "reason": "NotFound",',
        '  "details": {',
        '    "name": "web",',
        '    "kind": "pods"',
        '  },',
        '  "code": 404',
        '}',
      ].join('\n'),
    )
    expect(encodeBody(POD_INPUT, true)).toBe(
      JSON.stringify(JSON.parse(POD_WIRE), null, 2).replace(
        '"9": "nine",\n      "10": "ten"',
        '"10": "ten",\n      "9": "nine"',
      ),
    )
  })

  it('takes the native fast path only when the result is the same: already-ordered input gives identical bytes', () => {
    const ordered = JSON.parse(POD_WIRE) // JSON.parse keeps the order, except "9" now precedes "10"
    expect(encodeBody(ordered)).toBe(POD_WIRE + '\n')
    delete ordered.metadata.labels['10']
    delete ordered.metadata.labels['9']
    const expected = POD_WIRE.replace('"10":"ten","9":"nine",', '') + '\n'
    expect(encodeBody(ordered)).toBe(expected)
    expect(encodeBody(scrambled(ordered))).toBe(expected)
  })

  it('writes kinds it does not know, and the fields a schema does not declare, as they are', () => {
    expect(encodeBody({ kind: 'Thing', apiVersion: 'x/v1', b: 1, a: { d: 1, c: 2 } })).toBe(
      '{"kind":"Thing","apiVersion":"x/v1","b":1,"a":{"d":1,"c":2}}\n',
    )
    expect(encodeBody({ zz: 1, metadata: { name: 'p' }, apiVersion: 'v1', kind: 'Pod' })).toBe(
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"zz":1}\n',
    )
  })
})

describe('encodeWatchEvent', () => {
  it('writes type then object, the object in its kind order, one line ending in a newline', () => {
    expect(encodeWatchEvent({ object: POD_INPUT, type: 'ADDED' })).toBe(`{"type":"ADDED","object":${POD_WIRE}}\n`)
    const expired = statuses.tooOldResourceVersion(3, 10)
    expect(encodeWatchEvent(scrambled({ type: 'ERROR', object: expired }))).toBe(
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
        '"message":"too old resource version: 3 (10)","reason":"Expired","code":410}}\n',
    )
  })
})
