// Hostile patches of every patch type for a stored object: unreadable bodies, operations on missing paths, wrong types,
// directives kube does not know, apply without a manager, renames, and content types that are no patch type.
import { nested } from './bodies'
import type { Expect } from './refusal'

type Obj = Record<string, any>

export interface PatchCase {
  id: string
  contentType: string
  body: string
  query?: string
  want: Expect
  /** Decided before anything of the kind matters (reading the patch, its size, media type): a share is enough. */
  generic?: boolean
}

/** Cases refused while the patch is read, whatever the kind. */
const GENERIC =
  /unreadable|depth-|not-an-array|array-of-strings|10001|copy-doubling|tab-indent|yaml-|billion|recursive-alias|^apply empty|^media |^merge (array|string|null)$|^strategic array$/

export const JSON_PATCH = 'application/json-patch+json'
export const MERGE = 'application/merge-patch+json'
export const STRATEGIC = 'application/strategic-merge-patch+json'
export const APPLY = 'application/apply-patch+yaml'

const BAD = { codes: [400] }
const INVALID = { codes: [422] }
/** Patched into an object kube cannot decode or validate: 400 or 422 depending on where it fails. */
const REFUSED = { codes: [400, 422] }

const json = (v: unknown) => JSON.stringify(v)

function jsonPatches(): PatchCase[] {
  const p = (id: string, body: string, want: Expect = INVALID): PatchCase => ({
    id: `json-patch ${id}`,
    contentType: JSON_PATCH,
    body,
    want,
  })
  const ops = (n: number) =>
    json(Array.from({ length: n }, (_, i) => ({ op: 'test', path: '/metadata/name', value: `${i}` })))
  return [
    p('unreadable', '[{"op":', BAD),
    p('not-an-array', json({ op: 'add', path: '/metadata/labels/a', value: 'b' }), BAD),
    p('array-of-strings', json(['add']), REFUSED),
    // evanphx/json-patch Apply: `Unexpected kind: unknown`, a 422 like every Apply error.
    p('op-missing', json([{ path: '/metadata/labels/a', value: 'b' }])),
    p('op-unknown', json([{ op: 'frobnicate', path: '/metadata/labels/a', value: 'b' }])),
    p('remove-missing', json([{ op: 'remove', path: '/spec/hostileNope/deeper' }])),
    // evanphx/json-patch v4 (kube's) lets replace add a missing member (its RFC 6902 fix was reverted): the unknown
    // field then goes with a warning.
    p('replace-missing', json([{ op: 'replace', path: '/metadata/hostileNope', value: 1 }]), {
      accept: true,
      codes: [422],
    }),
    p('add-deep-missing', json([{ op: 'add', path: '/a/b/c/d', value: 1 }])),
    // findObject ignores the first token, so "metadata/labels" names the top-level labels (an unknown field).
    p('path-without-slash', json([{ op: 'add', path: 'metadata/labels', value: {} }]), { accept: true, codes: [422] }),
    p('path-missing', json([{ op: 'add', value: 1 }])),
    p('index-out-of-range', json([{ op: 'add', path: '/metadata/finalizers/99', value: 'x' }])),
    p('index-garbage', json([{ op: 'add', path: '/metadata/finalizers/-1x', value: 'x' }])),
    p('move-from-missing', json([{ op: 'move', from: '/nope', path: '/metadata/labels/x' }])),
    // A copy of a missing member copies null (kube's evanphx v4): the label becomes "".
    p('copy-from-missing', json([{ op: 'copy', from: '/nope', path: '/metadata/labels/x' }]), {
      accept: true,
      codes: [422],
    }),
    p('test-fails', json([{ op: 'test', path: '/metadata/name', value: 'someone-else' }])),
    p('wrong-type-value', json([{ op: 'replace', path: '/metadata/labels', value: 7 }]), REFUSED),
    p('rename', json([{ op: 'replace', path: '/metadata/name', value: 'someone-else' }]), BAD),
    // The patched object names nobody: checkName's 400 (the name of the object () does not match the name on the URL).
    p('remove-metadata', json([{ op: 'remove', path: '/metadata' }]), BAD),
    p('remove-name', json([{ op: 'remove', path: '/metadata/name' }]), BAD),
    p('replace-root', json([{ op: 'replace', path: '', value: 'x' }]), REFUSED),
    p('escape-garbage', json([{ op: 'add', path: '/metadata/labels/a~2b', value: 'x' }])),
    // kube caps a JSON patch at 10000 operations (maxJSONPatchOperations): 413.
    p('10001-operations', ops(10001), { codes: [413] }),
    // Go's JSON scanner stops at depth 10000 (400); shallower values reach validation (422).
    p('depth-20000', `[{"op":"add","path":"/metadata/annotations","value":${nested(20000)}}]`, BAD),
    p('depth-3000', `[{"op":"add","path":"/metadata/annotations","value":${nested(3000)}}]`, REFUSED),
    p('proto-pollution', json([{ op: 'add', path: '/__proto__/polluted', value: 'x' }]), {
      accept: true,
      codes: [400, 422],
    }),
    p('constructor-prototype', json([{ op: 'add', path: '/constructor/prototype/polluted', value: 'x' }]), {
      accept: true,
      codes: [400, 422],
    }),
    p(
      'copy-doubling',
      json([
        { op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(100_000) } },
        ...Array.from({ length: 30 }, () => ({
          op: 'copy',
          from: '/metadata/annotations',
          path: '/metadata/annotations/a',
        })),
      ]),
      { codes: [413, 422] },
    ),
  ]
}

function mergePatches(obj: Obj, namespaced: boolean): PatchCase[] {
  const p = (id: string, body: string, want: Expect = REFUSED, query?: string): PatchCase => ({
    id: `merge ${id}`,
    contentType: MERGE,
    body,
    want,
    query,
  })
  return [
    p('unreadable', '{"metadata":', BAD),
    p('array', '[]', REFUSED),
    p('string', '"x"', REFUSED),
    p('null', 'null', { accept: true, codes: [400, 422] }),
    p('labels-wrong-type', json({ metadata: { labels: 'x' } })),
    p('labels-value-wrong-type', json({ metadata: { labels: { a: 1 } } })),
    p('annotations-array', json({ metadata: { annotations: ['a'] } })),
    // A kind without a spec drops it as an unknown field (a warning).
    p('spec-wrong-type', json({ spec: 'x' }), { accept: !('spec' in obj), codes: [400, 422] }),
    p('rename', json({ metadata: { name: 'someone-else' } }), BAD),
    p('null-name', json({ metadata: { name: null } }), BAD),
    // EnsureObjectNamespaceMatchesRequestNamespace: 400 in a namespace, the namespace cleared for cluster-scoped kinds.
    namespaced
      ? p('other-namespace', json({ metadata: { namespace: 'someone-else' } }), BAD)
      : p('other-namespace-cluster-scoped', json({ metadata: { namespace: 'someone-else' } }), {
          accept: true,
          codes: [],
        }),
    p('apiversion-unknown', json({ apiVersion: 'v9' }), REFUSED),
    p('kind-unknown', json({ kind: 'Bogus' }), REFUSED),
    p('stale-resourceversion', json({ metadata: { resourceVersion: '1' } }), { codes: [409] }),
    p('resourceversion-garbage', json({ metadata: { resourceVersion: 'garbage' } }), { codes: [400, 409, 422] }),
    p('uid-mismatch', json({ metadata: { uid: '00000000-0000-0000-0000-000000000000' } }), { codes: [409, 422] }),
    // A strict decoding error of the patched object is a 422 (patch: Invalid value: ...).
    p('unknown-field-strict', json({ hostileField: 1 }), REFUSED, '?fieldValidation=Strict'),
    p('depth-20000', `{"metadata":{"annotations":{"a":${nested(20000)}}}}`, BAD),
    p('depth-3000', `{"metadata":{"annotations":{"a":${nested(3000)}}}}`, REFUSED),
    p('proto-key', '{"__proto__":{"polluted":"x"},"metadata":{"labels":{"__proto__":"x"}}}', {
      accept: true,
      codes: [400, 422],
    }),
    p('label-too-long', json({ metadata: { labels: { a: 'v'.repeat(70) } } }), INVALID),
    p('annotations-300kb', json({ metadata: { annotations: { a: 'x'.repeat(300 * 1024) } } }), INVALID),
    p('force-on-merge', json({ metadata: { labels: { a: 'b' } } }), INVALID, '?force=true'),
    p('field-manager-129', json({ metadata: { labels: { a: 'b' } } }), INVALID, `?fieldManager=${'m'.repeat(129)}`),
    p('dry-run-bogus', json({ metadata: { labels: { a: 'b' } } }), INVALID, '?dryRun=Bogus'),
  ]
}

/**
 * Strategic merge patch directives kube does not know. kube-apiserver answers several with a 500 (patch.go
 * interpretStrategicMergePatchError passes unknown errors through); the project answers 400 with kube's message.
 */
function strategicPatches(obj: Obj): PatchCase[] {
  const p = (id: string, body: string, want: Expect = BAD): PatchCase => ({
    id: `strategic ${id}`,
    contentType: STRATEGIC,
    body,
    want,
  })
  const list = Object.entries(obj.spec ?? {}).find(([, v]) => Array.isArray(v))?.[0]
  return [
    p('unreadable', '{"metadata":'),
    p('array', '[]', REFUSED),
    p('patch-directive-bogus', json({ metadata: { $patch: 'bogus' } }), REFUSED),
    p('patch-directive-number', json({ metadata: { $patch: 7 } }), REFUSED),
    // $patch: delete at the top empties the object: checkName's 400.
    p('top-patch-delete', json({ $patch: 'delete' }), BAD),
    p('metadata-patch-delete', json({ metadata: { $patch: 'delete' } }), REFUSED),
    p('retain-keys-garbage', json({ metadata: { $retainKeys: 'x' } }), REFUSED),
    p('retain-keys-unlisted', json({ metadata: { $retainKeys: ['labels'], annotations: { a: 'b' } } }), REFUSED),
    p('set-element-order-garbage', json({ metadata: { '$setElementOrder/finalizers': 'x' } }), REFUSED),
    p(
      'delete-from-primitive-list-garbage',
      json({ metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } }),
      REFUSED,
    ),
    // mergeMap: without ownerReferences to merge into, the list is taken without its directives (kube: 200); with
    // them, mergepatch.ErrNoMergeKey (kube 500, here 400).
    p('delete-without-merge-key', json({ metadata: { ownerReferences: [{ $patch: 'delete' }] } }), {
      accept: true,
      codes: [400],
    }),
    p('list-of-lists', json({ metadata: { finalizers: [['a']] } }), REFUSED),
    p('labels-wrong-type', json({ metadata: { labels: ['x'] } }), REFUSED),
    // A map with $patch where the object has a list: mergeMap's removeDirectives drops it, so the list goes.
    ...(list
      ? [
          p(`spec-${list}-object`, json({ spec: { [list]: { $patch: 'replace' } } }), {
            accept: true,
            codes: [400, 422],
          }),
        ]
      : []),
    p('depth-20000', `{"metadata":{"annotations":{"a":${nested(20000)}}}}`),
    p('depth-3000', `{"metadata":{"annotations":{"a":${nested(3000)}}}}`, REFUSED),
  ]
}

function applyPatches(obj: Obj): PatchCase[] {
  const head = `apiVersion: ${obj.apiVersion}\nkind: ${obj.kind}\nmetadata:\n  name: ${obj.metadata.name}\n`
  const p = (id: string, body: string, want: Expect = BAD, query = '?fieldManager=hostile'): PatchCase => ({
    id: `apply ${id}`,
    contentType: APPLY,
    body,
    want,
    query,
  })
  return [
    // ValidatePatchOptions: an apply names its manager (422).
    p('no-field-manager', head, INVALID, ''),
    p('unreadable-yaml', `${head}  labels: [\n`),
    p('tab-indent', `${head}\tlabels: {}\n`),
    p('yaml-list', '- a\n- b\n'),
    p('yaml-scalar', 'hello'),
    p('empty', '', REFUSED),
    p(
      'billion-laughs',
      `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n${head}`,
    ),
    p('recursive-alias', `${head}  labels: &x\n    a: *x\n`, REFUSED),
    p('rename', head.replace(`name: ${obj.metadata.name}`, 'name: someone-else'), BAD),
    p('apiversion-unknown', head.replace(`apiVersion: ${obj.apiVersion}`, 'apiVersion: v9'), REFUSED),
    p('kind-unknown', head.replace(`kind: ${obj.kind}`, 'kind: Bogus'), REFUSED),
    p('kind-missing', head.replace(`kind: ${obj.kind}\n`, ''), REFUSED),
    p('labels-wrong-type', `${head}  labels: [a]\n`, REFUSED),
    p('label-value-number-map', `${head}  labels:\n    a: {b: c}\n`, REFUSED),
    p('spec-wrong-type', `${head}spec: 7\n`, { accept: !('spec' in obj), codes: [400, 422] }),
    p('depth-20000', `${head}  annotations:\n    a: ${nested(20000)}\n`, REFUSED),
    p('depth-3000', `${head}  annotations:\n    a: ${nested(3000)}\n`, REFUSED),
    p('unknown-field-strict', `${head}hostileField: 1\n`, REFUSED, '?fieldManager=hostile&fieldValidation=Strict'),
    // kube reads a boolean query parameter as true unless it is 0, f or false (Convert_Slice_string_To_bool).
    p('force-garbage', head, { accept: true, codes: [400] }, '?fieldManager=hostile&force=bogus'),
    p('duplicate-keys', `${head}  labels:\n    a: b\n    a: c\n`, { accept: true, codes: [400, 422] }),
  ]
}

/** Content types that are not patch types (415), whatever the body. */
function mediaTypes(): PatchCase[] {
  const body = json({ metadata: { labels: { a: 'b' } } })
  const c = (id: string, contentType: string): PatchCase => ({
    id: `media ${id}`,
    contentType,
    body,
    want: { codes: [415] },
  })
  return [
    c('json', 'application/json'),
    c('text', 'text/plain'),
    c('yaml', 'application/yaml'),
    c('garbage', '%%%'),
    c('none', ''),
  ]
}

/** Every hostile patch for the stored object `obj` (`strategic`: the kind takes strategic merge patches). */
export function patchCases(obj: Obj, kind: { strategic: boolean; namespaced: boolean }): PatchCase[] {
  const strategic = kind.strategic
  return markGeneric([
    ...jsonPatches(),
    ...mergePatches(obj, kind.namespaced),
    ...(strategic ? strategicPatches(obj) : []),
    ...applyPatches(obj),
    ...mediaTypes(),
  ])
}

function markGeneric(cases: PatchCase[]): PatchCase[] {
  return cases.map((c) => (GENERIC.test(c.id) ? { ...c, generic: true } : c))
}
