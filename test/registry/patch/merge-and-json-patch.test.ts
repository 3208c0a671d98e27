// JSON merge patch (RFC 7386) and JSON patch (RFC 6902): the RFC appendix examples through the engines, then the
// same patch types through HTTP PATCH on a pod with kube's status codes (415, 422, 400, 409, no-change RV).
import { describe, expect, it } from 'vitest'
import { mergePatch } from '../../../src/registry/patch/merge-patch'
import { jsonPatch } from '../../../src/registry/patch/json-patch'
import { PatchError } from '../../../src/registry/patch/patch-error'
import { makeNamespace, req, waitFor } from '../../helpers'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any

const JSONP = { 'content-type': 'application/json-patch+json' }
const MERGE = { 'content-type': 'application/merge-patch+json' }
const SMP = { 'content-type': 'application/strategic-merge-patch+json' }

// ---------------------------------------------------------------------------------------------------------------------
// RFC 7386 Appendix A: every row of the table.

const RFC7386: [J, J, J][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
]

describe('JSON merge patch engine: RFC 7386 Appendix A', () => {
  for (const [i, [original, patch, result]] of RFC7386.entries()) {
    it(`row ${i + 1}: ${JSON.stringify(original)} + ${JSON.stringify(patch)} = ${JSON.stringify(result)}`, () => {
      const before = structuredClone(original)
      expect(mergePatch(structuredClone(original), structuredClone(patch))).toEqual(result)
      expect(original).toEqual(before)
    })
  }

  // evanphx/json-patch v4 (kube's): a value placed where no map is gets pruneNulls, which keeps an array's null
  // elements and drops the null members of the maps inside it; a non-map value merged onto a map is placed as it is.
  it('nulls inside a replacing array: null elements kept, null members of its maps pruned', () => {
    expect(mergePatch({ a: [1] }, { a: [null, { b: null }] })).toEqual({ a: [null, {}] })
    expect(mergePatch({ a: { x: 1 } }, { a: [null, { b: null }] })).toEqual({ a: [null, { b: null }] })
  })

  it('patches nested 10000 deep merge without recursion, and neither input is changed', () => {
    const deep = (n: number): J => JSON.parse(`${'{"a":['.repeat(n / 2)}{"z":null}${']}'.repeat(n / 2)}`)
    const patch = { x: deep(10000) }
    const out = mergePatch({ x: 1 }, patch)
    expect(JSON.stringify(out)).toBe(`{"x":${'{"a":['.repeat(5000)}{}${']}'.repeat(5000)}}`)
    expect(JSON.stringify(patch)).toContain('{"z":null}')
  })

  it('keeps a "__proto__" key as the own field it is', () => {
    const out = mergePatch(
      JSON.parse('{"data":{"a":"b"}}'),
      JSON.parse('{"data":{"__proto__":"m"},"__proto__":{"x":1}}'),
    )
    expect(Object.keys(out as J)).toEqual(['data', '__proto__'])
    expect(Object.getPrototypeOf((out as J).data)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"data":{"a":"b","__proto__":"m"},"__proto__":{"x":1}}')
  })

  it('the RFC 7386 section 3 example document', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    }
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] }
    expect(mergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    })
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// RFC 6902 Appendix A (and RFC 6901 escaping).

const apply = (doc: J, patch: J) => jsonPatch(structuredClone(doc), structuredClone(patch))

function jsonPatchError(doc: J, patch: J): PatchError {
  try {
    apply(doc, patch)
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError)
    return e as PatchError
  }
  throw new Error('expected the JSON patch to fail')
}

describe('JSON patch engine: RFC 6902 Appendix A', () => {
  it('A.1 adding an object member', () => {
    expect(apply({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({ baz: 'qux', foo: 'bar' })
  })

  it('A.2 adding an array element', () => {
    expect(apply({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({
      foo: ['bar', 'qux', 'baz'],
    })
  })

  it('A.3 removing an object member', () => {
    expect(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ foo: 'bar' })
  })

  it('A.4 removing an array element', () => {
    expect(apply({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({ foo: ['bar', 'baz'] })
  })

  it('A.5 replacing a value', () => {
    expect(apply({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({
      baz: 'boo',
      foo: 'bar',
    })
  })

  it('A.6 moving a value', () => {
    const doc = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }
    expect(apply(doc, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({
      foo: { bar: 'baz' },
      qux: { corge: 'grault', thud: 'fred' },
    })
  })

  it('A.7 moving an array element', () => {
    expect(apply({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }])).toEqual({
      foo: ['all', 'cows', 'eat', 'grass'],
    })
  })

  it('A.8 testing a value: success', () => {
    const doc = { baz: 'qux', foo: ['a', 2, 'c'] }
    expect(
      apply(doc, [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ]),
    ).toEqual(doc)
  })

  it('A.9 testing a value: error (a 422-class failure, not a malformed patch)', () => {
    const e = jsonPatchError({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }])
    expect(e.code).toBe(422)
  })

  it('A.10 adding a nested member object', () => {
    expect(apply({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }])).toEqual({
      foo: 'bar',
      child: { grandchild: {} },
    })
  })

  it('A.11 ignoring unrecognized elements', () => {
    expect(apply({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }])).toEqual({
      foo: 'bar',
      baz: 'qux',
    })
  })

  it('A.12 adding to a nonexistent target is an error', () => {
    jsonPatchError({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }])
  })

  it('A.13 invalid JSON patch document (duplicate "op": the last one, remove, cannot apply)', () => {
    const doc = { foo: 'bar' }
    const patch = JSON.parse('[{ "op": "add", "path": "/baz", "value": "qux", "op": "remove" }]')
    jsonPatchError(doc, patch)
  })

  it('A.14 ~ escape ordering: /~01 is the key "~1"', () => {
    const doc = { '/': 9, '~1': 10 }
    expect(apply(doc, [{ op: 'test', path: '/~01', value: 10 }])).toEqual(doc)
  })

  it('A.15 comparing strings and numbers: "10" is not 10', () => {
    jsonPatchError({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }])
  })

  it('A.16 adding an array value with "-"', () => {
    expect(apply({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }])).toEqual({
      foo: ['bar', ['abc', 'def']],
    })
  })
})

describe('JSON patch engine: pointers, indices, copy/move, errors', () => {
  it('RFC 6901 escapes: ~1 is "/", ~0 is "~"', () => {
    const doc = { 'a/b': 1, 'm~n': 8 }
    const out = apply(doc, [
      { op: 'test', path: '/a~1b', value: 1 },
      { op: 'test', path: '/m~0n', value: 8 },
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'add', path: '/x~1y~0z', value: 3 },
    ])
    expect(out).toEqual({ 'a/b': 2, 'm~n': 8, 'x/y~z': 3 })
  })

  it('"" is the whole document', () => {
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ b: 2 })
  })

  it('add at index == length appends; "-" appends; beyond length is an error', () => {
    expect(apply({ a: [1, 2] }, [{ op: 'add', path: '/a/2', value: 3 }])).toEqual({ a: [1, 2, 3] })
    expect(apply({ a: [1, 2] }, [{ op: 'add', path: '/a/-', value: 3 }])).toEqual({ a: [1, 2, 3] })
    jsonPatchError({ a: [1, 2] }, [{ op: 'add', path: '/a/5', value: 3 }])
  })

  it('remove of a missing member or element is an error; replace of a missing element too', () => {
    jsonPatchError({ a: 1 }, [{ op: 'remove', path: '/b' }])
    jsonPatchError({ a: [1] }, [{ op: 'remove', path: '/a/1' }])
    jsonPatchError({ a: [1] }, [{ op: 'replace', path: '/a/1', value: 2 }])
  })

  // evanphx/json-patch v4 (kube's): partialDoc.get reports nothing for a missing key, so replace adds the member.
  it('replace of a missing member adds it, as kube does', () => {
    expect(apply({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }])).toEqual({ a: 1, b: 2 })
  })

  it('negative indices count from the end (evanphx SupportNegativeIndices)', () => {
    expect(apply({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }])).toEqual({ a: [1, 2] })
    expect(apply({ a: [1, 2] }, [{ op: 'add', path: '/a/-1', value: 9 }])).toEqual({ a: [1, 2, 9] })
    jsonPatchError({ a: [1] }, [{ op: 'remove', path: '/a/-2' }])
  })

  it('copy of a missing member copies null; test of a missing member passes against null only', () => {
    expect(apply({ a: 1 }, [{ op: 'copy', from: '/nope', path: '/b' }])).toEqual({ a: 1, b: null })
    expect(apply({ a: 1 }, [{ op: 'test', path: '/nope', value: null }])).toEqual({ a: 1 })
    jsonPatchError({ a: 1 }, [{ op: 'test', path: '/nope', value: 1 }])
  })

  it('copies stop at 3 MiB of copied JSON (kube --json-patch-max-copy-bytes)', () => {
    const doubling = [
      { op: 'add', path: '/a', value: ['x'.repeat(100_000)] },
      ...Array.from({ length: 30 }, () => ({ op: 'copy', from: '/a', path: '/a/-' })),
    ]
    expect(jsonPatchError({}, doubling).message).toMatch(
      /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    )
  })

  it('keys such as "__proto__" and "constructor" are plain members', () => {
    const out: J = apply({ data: {} }, [
      { op: 'add', path: '/data/__proto__', value: 'j' },
      { op: 'add', path: '/data/constructor', value: 'c' },
      { op: 'test', path: '/data/__proto__', value: 'j' },
    ])
    expect(JSON.stringify(out)).toBe('{"data":{"__proto__":"j","constructor":"c"}}')
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype)
    jsonPatchError({ data: {} }, [{ op: 'remove', path: '/data/toString' }])
    jsonPatchError({ data: {} }, [{ op: 'add', path: '/data/constructor/x', value: 1 }])
  })

  it('values nested 10000 deep are added and compared without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(10000)}1${']'.repeat(10000)}`)
    const out: J = jsonPatch({}, [
      { op: 'add', path: '/a', value: deep },
      { op: 'test', path: '/a', value: deep },
    ])
    expect(JSON.stringify(out.a)).toBe(JSON.stringify(deep))
  })

  it('copy deep-copies: changing the copy leaves the source alone', () => {
    const out = apply({ a: { x: [1] } }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/b/x/-', value: 2 },
      { op: 'add', path: '/b/y', value: true },
    ])
    expect(out).toEqual({ a: { x: [1] }, b: { x: [1, 2], y: true } })
  })

  it('copy or move from a location whose parent is missing is an error; move from a missing member too', () => {
    jsonPatchError({ a: 1 }, [{ op: 'copy', from: '/nope/x', path: '/b' }])
    jsonPatchError({ a: 1 }, [{ op: 'move', from: '/nope/x', path: '/b' }])
    jsonPatchError({ a: 1 }, [{ op: 'move', from: '/nope', path: '/b' }])
  })

  it('move into its own child is an error (RFC 6902 4.4: "from" MUST NOT be a proper prefix of "path")', () => {
    jsonPatchError({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/c' }])
  })

  it('test compares deeply (objects and arrays)', () => {
    const doc = { a: { b: [1, { c: 'd' }] } }
    expect(apply(doc, [{ op: 'test', path: '/a', value: { b: [1, { c: 'd' }] } }])).toEqual(doc)
    jsonPatchError(doc, [{ op: 'test', path: '/a', value: { b: [1, { c: 'e' }] } }])
  })

  it('operations apply in order; a failure leaves the input document untouched', () => {
    const doc = { a: 1 }
    const before = structuredClone(doc)
    try {
      jsonPatch(doc, [
        { op: 'replace', path: '/a', value: 2 },
        { op: 'test', path: '/a', value: 1 },
      ])
    } catch {
      // expected
    }
    expect(doc).toEqual(before)
  })

  // evanphx Patch.Apply: an operation of no known kind fails like any other (kube's patcher: 422).
  it('a patch that is not an array is malformed (400); an unknown or missing op is an Apply error (422)', () => {
    expect(jsonPatchError({}, { op: 'add', path: '/a', value: 1 }).code).toBe(400)
    expect(jsonPatchError({}, [{ op: 'frobnicate', path: '/a' }])).toMatchObject({
      code: 422,
      message: 'Unexpected kind: frobnicate',
    })
    expect(jsonPatchError({}, [{ path: '/a' }]).message).toBe('Unexpected kind: unknown')
    expect(jsonPatchError({}, [{ op: 7, path: '/a' }]).message).toBe('Unexpected kind: unknown')
    expect(jsonPatchError({}, [null]).message).toBe('Unexpected kind: unknown')
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// Through HTTP PATCH on a pod.

const podBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web', 'example.com/role': 'front' }, annotations: { note: 'hello' } },
  spec: {
    containers: [
      { name: 'a', image: 'nginx:1.25' },
      { name: 'b', image: 'busybox:1.36', command: ['sleep', '3600'] },
    ],
  },
})

async function setup(name: string) {
  const ns = await makeNamespace('patch')
  const c = await req('POST', `/api/v1/namespaces/${ns}/pods`, podBody(name))
  expect(c.status, c.text).toBe(201)
  const path = `/api/v1/namespaces/${ns}/pods/${name}`
  // The simulated scheduler and kubelet move the pod on after create; patch a settled object so RVs are comparable.
  const current = await waitFor(`${name} running and ready`, async () => {
    const g = (await req('GET', path)).json
    const ready = g.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')
    return g.status?.phase === 'Running' && ready ? g : undefined
  })
  return { ns, path, current }
}

describe('PATCH content types', () => {
  const ACCEPTED = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ]

  it('415 UnsupportedMediaType for anything else, naming the four accepted types', async () => {
    const { path } = await setup('ct1')
    for (const type of ['application/json', 'application/yaml', 'text/plain', 'application/apply-patch+json']) {
      const r = await req('PATCH', path, { metadata: { labels: { x: 'y' } } }, { 'content-type': type })
      expect(r.status, `${type}: ${r.text}`).toBe(415)
      expect(r.json.kind).toBe('Status')
      expect(r.json.reason).toBe('UnsupportedMediaType')
      expect(r.json.code).toBe(415)
      expect(r.json.message).toMatch(
        /^the body of the request was in an unknown format - accepted media types include: /,
      )
      for (const t of ACCEPTED) expect(r.json.message).toContain(t)
    }
  })

  // kube's installer lists them as JSONPatchType, MergePatchType, StrategicMergePatchType, ApplyYAMLPatchType
  // (CRDs drop the strategic one, which is where "json, merge, apply" comes from).
  it("415 message lists the types in kube's order for built-in kinds [bug: src/api/handlers.ts ACCEPTED_PATCH_TYPES puts apply before strategic]", async () => {
    const { path } = await setup('ct2')
    const r = await req('PATCH', path, { metadata: {} }, { 'content-type': 'application/json' })
    expect(r.json.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    )
  })

  it('media type parameters (charset) are ignored', async () => {
    const { path } = await setup('ct3')
    const r = await req(
      'PATCH',
      path,
      { metadata: { labels: { x: 'y' } } },
      { 'content-type': 'application/merge-patch+json; charset=utf-8' },
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels.x).toBe('y')
  })
})

describe('JSON patch over HTTP', () => {
  it('add, replace, escaped keys (~1), "-" append, move and copy on a pod', async () => {
    const { path, current } = await setup('jp1')
    const r = await req(
      'PATCH',
      path,
      [
        { op: 'test', path: '/metadata/labels/example.com~1role', value: 'front' },
        { op: 'replace', path: '/metadata/labels/example.com~1role', value: 'back' },
        { op: 'add', path: '/metadata/labels/x', value: 'y' },
        { op: 'move', from: '/metadata/annotations/note', path: '/metadata/annotations/moved' },
        { op: 'copy', from: '/metadata/labels/app', path: '/metadata/annotations/app' },
        { op: 'replace', path: '/spec/containers/1/image', value: 'busybox:1.37' },
        { op: 'add', path: '/metadata/finalizers', value: ['example.com/one'] },
        { op: 'add', path: '/metadata/finalizers/-', value: 'example.com/two' },
      ],
      JSONP,
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels).toEqual({ app: 'web', 'example.com/role': 'back', x: 'y' })
    expect(r.json.metadata.annotations).toEqual({ moved: 'hello', app: 'web' })
    expect(r.json.spec.containers.map((c: J) => c.image)).toEqual(['nginx:1.25', 'busybox:1.37'])
    expect(r.json.metadata.finalizers).toEqual(['example.com/one', 'example.com/two'])
    expect(r.json.metadata.resourceVersion).not.toBe(current.metadata.resourceVersion)
  })

  it('a failing test op is 422 Invalid and changes nothing', async () => {
    const { path, current } = await setup('jp2')
    const r = await req(
      'PATCH',
      path,
      [
        { op: 'add', path: '/metadata/labels/x', value: 'y' },
        { op: 'test', path: '/metadata/labels/app', value: 'not-web' },
      ],
      JSONP,
    )
    expect(r.status, r.text).toBe(422)
    expect(r.json.kind).toBe('Status')
    expect(r.json.status).toBe('Failure')
    expect(r.json.reason).toBe('Invalid')
    expect(r.json.code).toBe(422)
    const g = await req('GET', path)
    expect(g.json.metadata.labels).toEqual(current.metadata.labels)
    expect(g.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion)
  })

  // kube-apiserver (handlers/patch.go applyJSPatch) wraps every jsonpatch Apply error in
  // NewGenericServerResponse(422, ...), whose message is fixed and whose details are empty:
  // {"message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}
  it("a failing JSON patch carries kube's generic 422 message [bug: src/registry/patch/apply-patch.ts puts the jsonpatch error text in message]", async () => {
    const { path } = await setup('jp3')
    const r = await req('PATCH', path, [{ op: 'test', path: '/metadata/labels/app', value: 'not-web' }], JSONP)
    expect(r.json.message).toBe('the server rejected our request due to an error in our request')
  })

  it('a path that does not exist (remove) is an error Status, nothing stored', async () => {
    const { path, current } = await setup('jp4')
    const r = await req('PATCH', path, [{ op: 'remove', path: '/metadata/labels/nope' }], JSONP)
    expect([400, 422]).toContain(r.status)
    expect(r.json.kind).toBe('Status')
    const g = await req('GET', path)
    expect(g.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion)
  })

  it('malformed bodies are 400 BadRequest: not JSON; an object instead of an array', async () => {
    const { path } = await setup('jp5')
    const a = await req('PATCH', path, '[{"op":"add",', JSONP)
    expect(a.status, a.text).toBe(400)
    expect(a.json.reason).toBe('BadRequest')
    const b = await req('PATCH', path, { op: 'add', path: '/metadata/labels/x', value: 'y' }, JSONP)
    expect(b.status, b.text).toBe(400)
    expect(b.json.reason).toBe('BadRequest')
    // handlers/patch.go: Strict and Warn (the default) first decode the operations strictly into []jsonPatchOp;
    // Ignore goes straight to jsonpatch.DecodePatch.
    expect(b.json.message).toBe(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    )
    const c = await req(
      'PATCH',
      `${path}?fieldValidation=Ignore`,
      { op: 'add', path: '/metadata/labels/x', value: 'y' },
      JSONP,
    )
    expect(c.status, c.text).toBe(400)
    expect(c.json.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch')
  })

  it('a test-only patch changes nothing: 200, same resourceVersion', async () => {
    const { path, current } = await setup('jp6')
    const r = await req('PATCH', path, [{ op: 'test', path: '/metadata/labels/app', value: 'web' }], JSONP)
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion)
  })

  it('fieldValidation=Strict: a path into an unknown field is refused; nothing stored', async () => {
    const { path, current } = await setup('jp7')
    const r = await req(
      'PATCH',
      `${path}?fieldValidation=Strict`,
      [{ op: 'add', path: '/spec/foo', value: 'bar' }],
      JSONP,
    )
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect(r.json.message).toContain('strict decoding error: unknown field "spec.foo"')
    const g = await req('GET', path)
    expect(g.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion)
  })

  // handlers/patch.go (jsonPatcher and smpPatcher): strict decoding errors of the patched object are
  // errors.NewInvalid(GroupKind{}, "", [field.Invalid("patch", <patched>, "strict decoding error: ...")]): 422 Invalid,
  // not the 400 BadRequest a POST/PUT body gets.
  it('fieldValidation=Strict on a patch is 422 Invalid "…is invalid: patch: Invalid value…" [bug: src/registry/patch/apply-patch.ts answers 400 BadRequest]', async () => {
    const { path } = await setup('jp8')
    const r = await req('PATCH', `${path}?fieldValidation=Strict`, { spec: { foo: 'bar' } }, MERGE)
    expect(r.status, r.text).toBe(422)
    expect(r.json.reason).toBe('Invalid')
    expect(r.json.message).toMatch(
      /is invalid: patch: Invalid value: .*strict decoding error: unknown field "spec\.foo"/,
    )
  })

  it('fieldValidation=Warn (the default): an unknown field is dropped with a Warning header', async () => {
    const { path } = await setup('jp9')
    const r = await req(
      'PATCH',
      path,
      [
        { op: 'add', path: '/spec/foo', value: 'bar' },
        { op: 'add', path: '/metadata/labels/w', value: '1' },
      ],
      JSONP,
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.spec.foo).toBeUndefined()
    expect(r.json.metadata.labels.w).toBe('1')
    expect(r.headers.get('warning') ?? '').toContain('unknown field \\"spec.foo\\"')
  })
})

describe('merge patch over HTTP', () => {
  it('labels per key, null deletes (kubectl label/annotate send exactly this)', async () => {
    const { path } = await setup('mp1')
    const r = await req(
      'PATCH',
      path,
      { metadata: { labels: { 'example.com/role': null, tier: 'fe' }, annotations: { note: null } } },
      MERGE,
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels).toEqual({ app: 'web', tier: 'fe' })
    expect(r.json.metadata.annotations ?? {}).toEqual({})
  })

  it('lists are replaced wholesale: finalizers', async () => {
    const { path } = await setup('mp2')
    await req('PATCH', path, { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, MERGE)
    const r = await req('PATCH', path, { metadata: { finalizers: ['example.com/c'] } }, MERGE)
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.finalizers).toEqual(['example.com/c'])
    // vs strategic merge patch: a union
    const s = await req('PATCH', path, { metadata: { finalizers: ['example.com/d'] } }, SMP)
    expect([...s.json.metadata.finalizers].sort()).toEqual(['example.com/c', 'example.com/d'])
  })

  it('lists are replaced wholesale: one container in a merge patch removes the other (pod update validation 422)', async () => {
    const { path } = await setup('mp3')
    const r = await req('PATCH', path, { spec: { containers: [{ name: 'a', image: 'nginx:1.26' }] } }, MERGE)
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'Pod "mp3" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers',
    )
  })

  it('a body that is not JSON is 400', async () => {
    const { path } = await setup('mp4')
    const r = await req('PATCH', path, '{"metadata":{', MERGE)
    expect(r.status, r.text).toBe(400)
    expect(r.json.reason).toBe('BadRequest')
  })

  it('a stale metadata.resourceVersion in the patch is 409 Conflict; the current one is accepted', async () => {
    const { path, current } = await setup('mp5')
    const rv = current.metadata.resourceVersion
    const moved = await req('PATCH', path, { metadata: { labels: { step: '1' } } }, MERGE)
    expect(moved.status, moved.text).toBe(200)
    const stale = await req('PATCH', path, { metadata: { resourceVersion: rv, labels: { step: '2' } } }, MERGE)
    expect(stale.status, stale.text).toBe(409)
    expect(stale.json.reason).toBe('Conflict')
    expect(stale.json.message).toBe(
      'Operation cannot be fulfilled on pods "mp5": the object has been modified; please apply your changes to the latest version and try again',
    )
    expect((await req('GET', path)).json.metadata.labels.step).toBe('1')
    const fresh = await req(
      'PATCH',
      path,
      { metadata: { resourceVersion: moved.json.metadata.resourceVersion, labels: { step: '3' } } },
      MERGE,
    )
    expect(fresh.status, fresh.text).toBe(200)
    expect(fresh.json.metadata.labels.step).toBe('3')
  })

  it('a stale resourceVersion is a 409 for the other patch types too', async () => {
    const { path, current } = await setup('mp6')
    const rv = current.metadata.resourceVersion
    expect((await req('PATCH', path, { metadata: { labels: { step: '1' } } }, MERGE)).status).toBe(200)
    const s = await req('PATCH', path, { metadata: { resourceVersion: rv, labels: { step: '2' } } }, SMP)
    expect(s.status, s.text).toBe(409)
    const j = await req('PATCH', path, [{ op: 'replace', path: '/metadata/resourceVersion', value: rv }], JSONP)
    expect(j.status, j.text).toBe(409)
  })

  it('a patch that changes nothing answers 200 with the same resourceVersion (merge and strategic)', async () => {
    const { path, current } = await setup('mp7')
    const rv = current.metadata.resourceVersion
    const m = await req('PATCH', path, { metadata: { labels: { app: 'web' } } }, MERGE)
    expect(m.status, m.text).toBe(200)
    expect(m.json.metadata.resourceVersion).toBe(rv)
    const s = await req('PATCH', path, { metadata: { labels: { app: 'web' } } }, SMP)
    expect(s.status, s.text).toBe(200)
    expect(s.json.metadata.resourceVersion).toBe(rv)
    const e = await req('PATCH', path, {}, MERGE)
    expect(e.status, e.text).toBe(200)
    expect(e.json.metadata.resourceVersion).toBe(rv)
    expect((await req('GET', path)).json.metadata.resourceVersion).toBe(rv)
  })

  it('dryRun=All answers the patched object and stores nothing', async () => {
    const { path, current } = await setup('mp8')
    const r = await req('PATCH', `${path}?dryRun=All`, { metadata: { labels: { dry: 'run' } } }, MERGE)
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels.dry).toBe('run')
    const g = await req('GET', path)
    expect(g.json.metadata.labels.dry).toBeUndefined()
    expect(g.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion)
  })

  it('the patched object records the patcher in managedFields (operation Update)', async () => {
    const { path } = await setup('mp9')
    const r = await req('PATCH', `${path}?fieldManager=my-patcher`, { metadata: { labels: { owned: 'yes' } } }, MERGE)
    expect(r.status, r.text).toBe(200)
    const mine = (r.json.metadata.managedFields ?? []).find((e: J) => e.manager === 'my-patcher')
    expect(mine).toMatchObject({ manager: 'my-patcher', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1' })
    expect(mine.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:owned': {} } } })
  })
})

describe('PATCH options', () => {
  it('force on a non-apply patch is 422 with the PatchOptions message (any value, even false)', async () => {
    const { path } = await setup('po1')
    for (const [force, headers, body] of [
      ['true', MERGE, { metadata: { labels: { x: 'y' } } }],
      ['false', SMP, { metadata: { labels: { x: 'y' } } }],
      ['true', JSONP, [{ op: 'add', path: '/metadata/labels/x', value: 'y' }]],
    ] as const) {
      const r = await req('PATCH', `${path}?force=${force}`, body, headers)
      expect(r.status, r.text).toBe(422)
      expect(r.json.reason).toBe('Invalid')
      expect(r.json.message).toBe(
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      )
      expect(r.json.details).toMatchObject({ group: 'meta.k8s.io', kind: 'PatchOptions' })
      expect(r.json.details.causes).toEqual([
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: may not be specified for non-apply patch',
          field: 'force',
        },
      ])
    }
    expect((await req('GET', path)).json.metadata.labels.x).toBeUndefined()
  })

  it('an unknown dryRun value is 422 PatchOptions invalid (metav1 ValidatePatchOptions), and nothing changes', async () => {
    const { path } = await setup('po2')
    const r = await req('PATCH', `${path}?dryRun=Some`, { metadata: { labels: { x: 'y' } } }, MERGE)
    expect(r.status, r.text).toBe(422)
    expect(JSON.parse(r.text)).toMatchObject({
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'PatchOptions', name: '' },
    })
    const after = await req('GET', path)
    expect(JSON.parse(after.text).metadata.labels?.x).toBeUndefined()
  })
})
