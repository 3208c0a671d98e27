// Hostile request bodies for a create or an update, built from a valid object of the kind: text that is not JSON or
// YAML, documents of the wrong shape, kind or version, bad names, huge and deep values. Each names what kube answers.
import type { Expect } from './refusal'

type Obj = Record<string, any>

export interface BodyCase {
  id: string
  body: string | Uint8Array | Obj
  headers?: Record<string, string>
  /** Query appended to the request path (with its `?`). */
  query?: string
  want: Expect
  /** The name the body would create, when the case is a create kube may accept. */
  name?: string
  /** Decided before anything of the kind matters (reading, sizes, media types): a share of the kinds is enough. */
  generic?: boolean
}

const JSON_CT = { 'content-type': 'application/json' }
const YAML_CT = { 'content-type': 'application/yaml' }
const PROTOBUF_CT = { 'content-type': 'application/vnd.kubernetes.protobuf' }
const BAD = { codes: [400] }
const INVALID = { codes: [422] }

/** `depth` nested single-element arrays around 1: `[[[1]]]`. */
export const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`

/** The YAML "billion laughs": nine levels of aliases, each nine times the one below. */
const LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((c, i) => {
    const prev = 'abcdefghi'[i]
    return `${c}: &${c} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`
  }),
].join('\n')

/** Bodies whose text kube cannot read as an object (400, whatever the kind). */
function unreadable(valid: Obj): BodyCase[] {
  const text = JSON.stringify(valid)
  const t = (id: string, body: string | Uint8Array, headers = JSON_CT): BodyCase => ({ id, body, headers, want: BAD })
  return [
    t('json-truncated', text.slice(0, Math.floor(text.length / 2))),
    t('json-empty', ''),
    // Go unmarshals null into the empty object, which validation then refuses.
    { id: 'json-null', body: 'null', headers: JSON_CT, want: { accept: true, codes: [400, 422] } },
    t('json-array', `[${text}]`),
    t('json-string', '"a pod"'),
    t('json-number', '42'),
    t('json-trailing-comma', `${text.slice(0, -1)},}`),
    t('json-single-quotes', text.replaceAll('"', "'")),
    t('json-comment', `/* hostile */${text}`),
    t('json-nan', `${text.slice(0, -1)},"x":NaN}`),
    t('json-bom', `\ufeff${text}`),
    // Go reads invalid UTF-8 in a string as U+FFFD: kube takes this body (an unknown field), refusing is kinder.
    {
      id: 'json-invalid-utf8',
      body: new Uint8Array([
        ...new TextEncoder().encode(text.slice(0, -1)),
        0x2c,
        0x22,
        0xff,
        0xfe,
        0x22,
        0x3a,
        0x31,
        0x7d,
      ]),
      headers: JSON_CT,
      want: { accept: true, codes: [400] },
    },
    t('json-nul-bytes', `${text}\u0000\u0000`),
    t('json-two-documents', `${text}${text}`),
    t(
      'json-depth-20000',
      `{"apiVersion":${JSON.stringify(valid.apiVersion)},"kind":${JSON.stringify(valid.kind)},"x":${nested(20000)}}`,
    ),
    // Protobuf bodies (what kubectl's generators send): no magic, the magic and a length past the end, the magic
    // alone, a raw message whose length varint never ends. 415 where the kind has no protobuf form (custom resources).
    ...[
      ['protobuf-no-magic', [1, 2, 3, 4]],
      ['protobuf-length-past-end', [0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x01]],
      ['protobuf-magic-only', [0x6b, 0x38, 0x73, 0x00]],
      ['protobuf-endless-varint', [0x6b, 0x38, 0x73, 0x00, 0x12, ...Array(64).fill(0xff)]],
    ].map(([id, bytes]) => ({
      id: id as string,
      body: new Uint8Array(bytes as number[]),
      headers: PROTOBUF_CT,
      want: { codes: [400, 415] },
    })),
    t('yaml-unclosed', 'apiVersion: v1\nkind: [\n', YAML_CT),
    t('yaml-tab-indent', `apiVersion: ${valid.apiVersion}\nkind: ${valid.kind}\nmetadata:\n\tname: x\n`, YAML_CT),
    t('yaml-billion-laughs', `${LAUGHS}\napiVersion: ${valid.apiVersion}\nkind: ${valid.kind}\n`, YAML_CT),
    t('yaml-recursive-alias', `apiVersion: ${valid.apiVersion}\nkind: ${valid.kind}\nx: &x\n  y: *x\n`, YAML_CT),
    t('yaml-scalar', 'just a string', YAML_CT),
    t('yaml-list', '- a\n- b\n', YAML_CT),
    t('yaml-depth-20000', `apiVersion: ${valid.apiVersion}\nkind: ${valid.kind}\nx: ${nested(20000)}\n`, YAML_CT),
  ]
}

/** Documents of the wrong kind or version, or whose type fields are not strings. */
function wrongKind(valid: Obj): BodyCase[] {
  const c = (id: string, head: Obj): BodyCase => ({ id, body: { ...valid, ...head }, want: BAD })
  return [
    c('apiversion-unknown', { apiVersion: 'v9' }),
    c('apiversion-other-group', { apiVersion: 'bogus.example.com/v1' }),
    c('kind-unknown', { kind: 'Bogus' }),
    c('kind-other', { kind: valid.kind === 'ConfigMap' ? 'Secret' : 'ConfigMap' }),
    c('apiversion-number', { apiVersion: 1 }),
    c('kind-object', { kind: { name: valid.kind } }),
    // The endpoint's group-version fills in a missing apiVersion (json.Serializer gvkWithDefaults): kube takes it.
    { id: 'kind-without-apiversion', body: { ...valid, apiVersion: undefined }, want: { accept: true, codes: [400] } },
  ]
}

/** Metadata kube refuses: wrong types (400) and bad values (422). */
function badMetadata(valid: Obj, kind: KindTraits): BodyCase[] {
  const m = (id: string, metadata: unknown, want: Expect): BodyCase => ({ id, body: { ...valid, metadata }, want })
  // Reviews are never stored: kube validates no metadata of theirs (the access reviews want it empty: 422).
  const value = kind.named ? INVALID : { accept: true, codes: [422] }
  const meta = valid.metadata as Obj
  const cases = [
    m('metadata-string', 'x', BAD),
    m('metadata-array', [meta], BAD),
    m('labels-array', { ...meta, labels: ['a'] }, BAD),
    m('labels-number-value', { ...meta, labels: { a: 1 } }, BAD),
    m('annotations-nested', { ...meta, annotations: { a: { b: 'c' } } }, BAD),
    m('finalizers-string', { ...meta, finalizers: 'x' }, BAD),
    m('generation-huge', { ...meta, generation: 1e300 }, BAD),
    m('generation-fraction', { ...meta, generation: 1.5 }, BAD),
    m('creation-timestamp-garbage', { ...meta, creationTimestamp: 'yesterday' }, BAD),
    m('owner-references-garbage', { ...meta, ownerReferences: [{ uid: 7 }] }, BAD),
    m('label-value-70-chars', { ...meta, labels: { a: 'v'.repeat(70) } }, value),
    m('label-key-bad', { ...meta, labels: { 'bad key!': 'v' } }, value),
    m('annotations-300kb', { ...meta, annotations: { big: 'x'.repeat(300 * 1024) } }, value),
    m(
      'labels-5000-keys',
      { ...meta, labels: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'])) },
      { accept: true, codes: [422] },
    ),
    m('finalizer-bad', { ...meta, finalizers: ['not a finalizer!'] }, value),
    m(
      'owner-reference-incomplete',
      { ...meta, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x' }] },
      value,
    ),
  ]
  if (kind.named) {
    // Kinds whose names are path segments (RBAC, and the generic registry's rule: PodDisruptionBudget) take any name
    // without '/', '%' and the dot names.
    const name = kind.pathSegmentNames ? { accept: true, codes: [422] } : INVALID
    cases.push(
      m('name-bad-characters', { ...meta, name: 'Bad_Name!' }, name),
      m('name-300-chars', { ...meta, name: 'a'.repeat(300) }, name),
      m('name-dots', { ...meta, name: '..' }, INVALID),
      m('name-slash', { ...meta, name: 'a/b' }, INVALID),
      m('name-percent', { ...meta, name: 'a%2Fb' }, INVALID),
      m('name-newline', { ...meta, name: 'a\nb' }, name),
      m('name-unicode', { ...meta, name: 'ünïcødé' }, name),
      m('name-missing', { ...meta, name: undefined }, INVALID),
      m('generate-name-bad', { ...meta, name: undefined, generateName: 'Bad_' }, name),
      m('name-number', { ...meta, name: 42 }, BAD),
      // EnsureObjectNamespaceMatchesRequestNamespace: 400 in a namespace, cleared for cluster-scoped kinds.
      m(
        'namespace-mismatch',
        { ...meta, namespace: 'some-other-namespace' },
        { accept: !kind.namespaced, codes: [400] },
      ),
    )
  }
  return cases
}

/** Unknown and duplicate fields with fieldValidation=Strict (400), and the unknown field's deep nesting (no 5xx). */
function strict(valid: Obj): BodyCase[] {
  const text = JSON.stringify(valid)
  return [
    { id: 'strict-unknown-top', body: { ...valid, hostileField: 1 }, query: '?fieldValidation=Strict', want: BAD },
    {
      id: 'strict-unknown-metadata',
      body: { ...valid, metadata: { ...valid.metadata, hostileField: 1 } },
      query: '?fieldValidation=Strict',
      want: BAD,
    },
    {
      id: 'strict-duplicate',
      body: `{"kind":${JSON.stringify(valid.kind)},${text.slice(1)}`,
      headers: JSON_CT,
      query: '?fieldValidation=Strict',
      want: BAD,
    },
    // Create, update and patch options are validated (metav1 validation.ValidateCreateOptions): 422.
    { id: 'field-validation-bogus', body: valid, query: '?fieldValidation=Bogus', want: INVALID },
    { id: 'dry-run-bogus', body: valid, query: '?dryRun=Bogus', want: INVALID },
    { id: 'field-manager-129-chars', body: valid, query: `?fieldManager=${'m'.repeat(129)}`, want: INVALID },
    { id: 'field-manager-control-chars', body: valid, query: '?fieldManager=a%00b', want: INVALID },
  ]
}

/** Sizes: a body past kube's 3 MiB limit (413), huge strings and arrays where the kind has room for them. */
function huge(valid: Obj): BodyCase[] {
  const padding = 'x'.repeat(3 * 1024 * 1024 + 16)
  return [
    { id: 'body-over-3mib', body: { ...valid, hostileField: padding }, want: { codes: [413] } },
    {
      id: 'content-length-lies',
      body: JSON.stringify(valid),
      headers: { ...JSON_CT, 'content-length': String(50 * 1024 * 1024) },
      want: { accept: true, codes: [400, 413] },
    },
    { id: 'unknown-array-100k', body: { ...valid, hostileField: Array(100_000).fill(0) }, want: { accept: true } },
    {
      id: 'unknown-depth-99',
      body: `${JSON.stringify(valid).slice(0, -1)},"hostileField":${nested(99)}}`,
      headers: JSON_CT,
      want: { accept: true },
    },
    {
      id: 'unknown-depth-5000',
      body: `${JSON.stringify(valid).slice(0, -1)},"hostileField":${nested(5000)}}`,
      headers: JSON_CT,
      want: { accept: true },
    },
    {
      id: 'number-1e400',
      body: `${JSON.stringify(valid).slice(0, -1)},"hostileField":1e400}`,
      headers: JSON_CT,
      want: { accept: true },
    },
  ]
}

/** Content types kube does not decode objects from (415). */
function mediaTypes(valid: Obj): BodyCase[] {
  const text = JSON.stringify(valid)
  const c = (id: string, type: string): BodyCase => ({
    id,
    body: text,
    headers: { 'content-type': type },
    want: { codes: [415] },
  })
  return [
    c('content-type-text-plain', 'text/plain'),
    c('content-type-form', 'application/x-www-form-urlencoded'),
    c('content-type-json-patch-on-write', 'application/json-patch+json'),
    c('content-type-garbage', ';;;'),
    c('content-type-xml', 'application/xml'),
  ]
}

/** What the metadata cases need to know of a kind. */
export interface KindTraits {
  /** Objects are stored under names (false: reviews). */
  named: boolean
  namespaced: boolean
  /** Names are validated as path segments only (RBAC kinds, PodDisruptionBudget). */
  pathSegmentNames: boolean
}

/** Every hostile create body for a kind, from a valid object. */
export function createCases(valid: Obj, kind: KindTraits): BodyCase[] {
  const generic = (cases: BodyCase[]) => cases.map((c) => ({ ...c, generic: true }))
  return [
    ...generic(unreadable(valid)),
    ...wrongKind(valid),
    ...badMetadata(valid, kind),
    ...strict(valid),
    ...generic(huge(valid)),
    ...generic(mediaTypes(valid)),
  ]
}
