// Hostile requests to the subresources discovery lists beside a resource: /status patches, Scale bodies, pod
// bindings, evictions, ephemeral containers, log options, exec/attach/portforward without an upgrade, TokenRequests.
// A subresource this file does not know still gets unreadable bodies and garbage queries for each verb it lists.
import { nested } from './bodies'
import { patchCases } from './patch-cases'
import type { Expect, Findings } from './refusal'
import { send } from './refusal'
import type { Served, Subresource } from './served'
import { restore, settled } from './settle'
import { expectUnchanged, type Target } from './stored-object'

const JSON_CT = { 'content-type': 'application/json' }
const MERGE = { 'content-type': 'application/merge-patch+json' }
const BAD = { codes: [400] }
const INVALID = { codes: [422] }
const REFUSED = { codes: [400, 422] }

interface SubCase {
  id: string
  method: string
  query?: string
  body?: string | Record<string, unknown>
  headers?: Record<string, string>
  want: Expect
  /** The request writes the object when kube takes it: put the first state back. */
  writes?: boolean
}

const json = (v: unknown) => JSON.stringify(v)

/** Every third hostile patch, aimed at /status (the patch sweep has them all on the object). */
function statusCases(t: Target, s: Served): SubCase[] {
  return patchCases(t.example, { strategic: !s.custom, namespaced: s.namespaced })
    .filter((_, i) => i % 3 === 0)
    .map((c) => ({
      id: c.id,
      method: 'PATCH',
      query: c.query,
      body: c.body,
      headers: { 'content-type': c.contentType },
      // What /status keeps of a metadata change differs by kind (a custom resource's keeps none): taken or refused.
      want: /label|annotation/.test(c.id) ? { ...c.want, accept: true } : c.want,
      writes: true,
    }))
}

function scaleCases(t: Target, s: Served): SubCase[] {
  const name = t.baseline.metadata.name
  const scale = (spec: unknown, meta: Record<string, unknown> = {}) => ({
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name, namespace: t.baseline.metadata.namespace, ...meta },
    spec,
  })
  const put = (id: string, body: unknown, want: Expect): SubCase => ({
    id: `put ${id}`,
    method: 'PUT',
    body: typeof body === 'string' ? body : json(body),
    headers: JSON_CT,
    want,
    writes: true,
  })
  const patch = (id: string, body: unknown, want: Expect): SubCase => ({
    id: `patch ${id}`,
    method: 'PATCH',
    body: json(body),
    headers: MERGE,
    want,
    writes: true,
  })
  return [
    put('unreadable', '{"spec":', BAD),
    put('wrong-kind', { ...scale({ replicas: 1 }), kind: s.kind }, BAD),
    put('replicas-string', scale({ replicas: 'x' }), BAD),
    put('replicas-negative', scale({ replicas: -1 }), INVALID),
    put('replicas-int32-overflow', scale({ replicas: 2 ** 40 }), BAD),
    put('replicas-fraction', scale({ replicas: 1.5 }), BAD),
    put('rename', scale({ replicas: 1 }, { name: 'someone-else' }), BAD),
    put('stale-resource-version', scale({ replicas: 1 }, { resourceVersion: '1' }), { codes: [409] }),
    // kube answers 500 (the scale's resourceVersion goes to the object, whose parse error storage never converts);
    // the project's rule: 400 with kube's message.
    put('resource-version-garbage', scale({ replicas: 1 }, { resourceVersion: 'garbage' }), BAD),
    put('depth-20000', `{"spec":{"replicas":1},"x":${nested(20000)}}`, BAD),
    patch('replicas-string', { spec: { replicas: 'x' } }, REFUSED),
    patch('replicas-negative', { spec: { replicas: -1 } }, INVALID),
    patch('spec-string', { spec: 'x' }, REFUSED),
    patch('rename', { metadata: { name: 'someone-else' } }, BAD),
    {
      id: 'patch media-text',
      method: 'PATCH',
      body: '{}',
      headers: { 'content-type': 'text/plain' },
      want: { codes: [415] },
    },
    {
      id: 'get resource-version-garbage',
      method: 'GET',
      query: '?resourceVersion=garbage',
      want: { codes: [400, 422] },
    },
  ]
}

function bindingCases(): SubCase[] {
  const post = (id: string, body: unknown, want: Expect): SubCase => ({
    id,
    method: 'POST',
    body: typeof body === 'string' ? body : json(body),
    headers: JSON_CT,
    want,
  })
  return [
    post('unreadable', '{"target":', BAD),
    post('array', '[]', BAD),
    post('wrong-kind', { apiVersion: 'v1', kind: 'Pod', target: { name: 'n' } }, BAD),
    post('target-missing', { apiVersion: 'v1', kind: 'Binding', metadata: {} }, REFUSED),
    post('target-string', { apiVersion: 'v1', kind: 'Binding', target: 'node' }, BAD),
    post(
      'rename',
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'someone-else' }, target: { name: 'n' } },
      BAD,
    ),
    { id: 'media-text', method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' }, want: { codes: [415] } },
  ]
}

function evictionCases(t: Target): SubCase[] {
  const post = (id: string, body: unknown, want: Expect): SubCase => ({
    id,
    method: 'POST',
    body: typeof body === 'string' ? body : json(body),
    headers: JSON_CT,
    want,
  })
  const metadata = { name: t.baseline.metadata.name, namespace: t.baseline.metadata.namespace }
  const ev = (extra: Record<string, unknown>) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata, ...extra })
  return [
    post('unreadable', '{"metadata":', BAD),
    post('wrong-kind', { apiVersion: 'v1', kind: 'Pod' }, BAD),
    post('rename', ev({ metadata: { name: 'someone-else' } }), BAD),
    post('delete-options-string', ev({ deleteOptions: 'x' }), BAD),
    post('grace-string', ev({ deleteOptions: { gracePeriodSeconds: 'x' } }), BAD),
    // The eviction hands its DeleteOptions to the store unvalidated: kube evicts (and a dryRun of any value is a dry
    // run there). Refusing is kinder; both are fine.
    post('propagation-garbage', ev({ deleteOptions: { propagationPolicy: 'Sometimes' } }), {
      accept: true,
      codes: [400, 422],
    }),
    post(
      'uid-precondition',
      ev({ deleteOptions: { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } } }),
      { codes: [409] },
    ),
    post('dry-run-bogus', ev({ deleteOptions: { dryRun: ['Bogus'] } }), { accept: true, codes: [400, 422] }),
  ]
}

function ephemeralCases(t: Target): SubCase[] {
  const spec = t.baseline.spec
  const put = (id: string, extra: unknown, want: Expect): SubCase => ({
    id: `put ${id}`,
    method: 'PUT',
    body: json({ ...t.baseline, spec: { ...spec, ephemeralContainers: extra } }),
    headers: JSON_CT,
    want,
    writes: true,
  })
  return [
    put('string', 'x', BAD),
    put('element-string', ['x'], BAD),
    put('name-bad', [{ name: 'Bad_Name', image: 'busybox' }], INVALID),
    put('image-missing', [{ name: 'debug' }], INVALID),
    put('ports', [{ name: 'debug', image: 'busybox', ports: [{ containerPort: 80 }] }], INVALID),
    put('name-clash', [{ name: spec.containers[0].name, image: 'busybox' }], INVALID),
    { id: 'patch unreadable', method: 'PATCH', body: '{"spec":', headers: MERGE, want: BAD },
    {
      id: 'patch containers-string',
      method: 'PATCH',
      body: json({ spec: { ephemeralContainers: 'x' } }),
      headers: MERGE,
      want: REFUSED,
    },
  ]
}

function logCases(): SubCase[] {
  const get = (id: string, query: string, want: Expect): SubCase => ({ id, method: 'GET', query, want })
  return [
    get('tail-lines-garbage', '?tailLines=abc', BAD),
    get('tail-lines-negative', '?tailLines=-1', INVALID),
    get('since-seconds-zero', '?sinceSeconds=0', INVALID),
    get('since-seconds-garbage', '?sinceSeconds=soon', BAD),
    get('since-time-garbage', '?sinceTime=yesterday', BAD),
    get('since-both', `?sinceSeconds=5&sinceTime=${encodeURIComponent('2024-01-01T00:00:00Z')}`, INVALID),
    get('limit-bytes-zero', '?limitBytes=0', INVALID),
    get('limit-bytes-garbage', '?limitBytes=lots', BAD),
    get('container-unknown', '?container=nobody', BAD),
    get('tail-lines-huge', '?tailLines=99999999999999999999999', BAD),
  ]
}

/** exec, attach and portforward are upgrades: a plain request is refused (400), as are options kube cannot read. */
function connectCases(sub: string): SubCase[] {
  const get = (id: string, query: string): SubCase => ({ id, method: 'GET', query, want: BAD })
  if (sub === 'portforward') return [get('no-upgrade', ''), get('ports-garbage', '?ports=abc')]
  return [
    get('no-upgrade', '?command=ls&stdout=1'),
    get('container-unknown', '?command=ls&container=nobody&stdout=1'),
    get('no-streams', '?command=ls'),
    ...(sub === 'exec' ? [get('no-command', '?stdout=1')] : []),
  ]
}

function tokenCases(): SubCase[] {
  const tr = (spec: unknown) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec })
  const post = (id: string, body: unknown, want: Expect): SubCase => ({
    id,
    method: 'POST',
    body: typeof body === 'string' ? body : json(body),
    headers: JSON_CT,
    want,
  })
  return [
    post('unreadable', '{"spec":', BAD),
    post('wrong-kind', { apiVersion: 'v1', kind: 'Pod' }, BAD),
    post('expiration-string', tr({ expirationSeconds: 'x' }), BAD),
    post('expiration-too-short', tr({ expirationSeconds: 1 }), INVALID),
    post('expiration-huge', tr({ expirationSeconds: 2 ** 70 }), BAD),
    post('audiences-string', tr({ audiences: 'x' }), BAD),
    // token_request.go: "cannot bind token to object of type /v1, Kind=ConfigMap", a 400.
    post('bound-object-unknown-kind', tr({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }), BAD),
    post('bound-pod-missing', tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nobody' } }), {
      codes: [404, 422],
    }),
    post('spec-string', tr('x'), BAD),
  ]
}

/** For a subresource this file knows nothing of: unreadable bodies and garbage queries on each listed verb. */
function genericCases(sub: Subresource): SubCase[] {
  const out: SubCase[] = []
  const loose = { accept: true, codes: [400, 404, 405, 415, 422] }
  if (sub.verbs.includes('get'))
    out.push({ id: 'get garbage', method: 'GET', query: '?resourceVersion=x&timeoutSeconds=y', want: loose })
  if (sub.verbs.includes('create'))
    out.push({ id: 'post unreadable', method: 'POST', body: '{"x":', headers: JSON_CT, want: loose })
  if (sub.verbs.includes('update'))
    out.push({ id: 'put unreadable', method: 'PUT', body: '{"x":', headers: JSON_CT, want: loose, writes: true })
  if (sub.verbs.includes('patch'))
    out.push({ id: 'patch unreadable', method: 'PATCH', body: '{"x":', headers: MERGE, want: loose, writes: true })
  return out
}

export function subresourceCases(s: Served, sub: Subresource, t: Target): SubCase[] | null {
  switch (sub.name) {
    case 'status':
      return statusCases(t, s)
    case 'scale':
      return scaleCases(t, s)
    case 'binding':
      return bindingCases()
    case 'eviction':
      return evictionCases(t)
    case 'ephemeralcontainers':
      return ephemeralCases(t)
    case 'log':
      return logCases()
    case 'exec':
    case 'attach':
    case 'portforward':
      return connectCases(sub.name)
    case 'token':
      return tokenCases()
    // The proxy hands requests to the pod: what answers is the pod's server, not the API's decoding.
    case 'proxy':
      return null
    default:
      return genericCases(sub)
  }
}

/**
 * Sends each case for each subresource of the stored object `t`; a refused write leaves the object as it was. An
 * eviction or binding kube would refuse but that went through changes the object for good: `renew` stores another.
 */
export async function sweepSubresources(s: Served, first: Target, findings: Findings, renew: () => Promise<Target>) {
  let t = first
  let current = await settled(t.item)
  // Evictions last: one taken by mistake deletes the pod the other cases need.
  const order = [...s.subresources].sort((a, b) => Number(a.name === 'eviction') - Number(b.name === 'eviction'))
  for (const sub of order) {
    const count = (subresourceCases(s, sub, t) ?? []).length
    for (let i = 0; i < count; i++) {
      // Built from the object as now stored (a renewed one has another name; the kubelet moves a pod's
      // resourceVersion on): a replace that still meets a conflict is built again from a fresh read.
      let c = subresourceCases(s, sub, { ...t, baseline: current })![i]!
      const id = `${s.resource}/${sub.name} ${c.id}`
      const path = `${t.item}/${sub.name}${c.query ?? ''}`
      let r = await send(c.method, path, c.body, c.headers ?? {})
      for (let attempt = 0; attempt < 4 && r.status === 409 && c.method === 'PUT'; attempt++) {
        current = (await send('GET', t.item)).json
        c = subresourceCases(s, sub, { ...t, baseline: current })![i]!
        r = await send(c.method, path, c.body, c.headers ?? {})
      }
      findings.note(id, `${c.method} ${path}`, r, c.want)
      const taken = r.status >= 200 && r.status < 300
      if (taken && c.writes) {
        await restore(t.item, t.baseline)
        current = await settled(t.item)
      } else if (taken && c.method === 'POST') {
        t = await renew()
        current = t.baseline
      } else if (c.method !== 'GET') current = await expectUnchanged(findings, id, t.item, current)
    }
  }
  // Subresource paths with a name nothing has: a 404, never anything worse.
  for (const sub of s.subresources) {
    const gone = t.item.replace(/[^/]+$/, 'hostile-nobody')
    const method = sub.verbs.includes('get') ? 'GET' : 'POST'
    await findings.send(
      `${s.resource}/${sub.name} missing-object`,
      method,
      `${gone}/${sub.name}`,
      method === 'POST' ? '{}' : undefined,
      JSON_CT,
      { codes: [400, 404, 422] },
    )
  }
}
