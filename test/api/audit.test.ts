// The audit log through the Worker: one audit.k8s.io/v1 Event line per request stage on the console, in kube's field
// order and shape, with the Audit-Id header; levels and stages from a policy in KUBEFLARE_AUDIT_POLICY; refusals
// audited with what was known; and no Secret contents or tokens in any line, whatever the policy asks.
/// <reference types="vite/client" />
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, pod, withToken } from '../helpers'
import { bearer, TEST_TOKENS } from '../support/test-tokens'

const app = buildApp()

// Real kubectl protobuf bodies (test/api/protobuf/fixtures), inlined by Vite as base64 data URLs.
const pbUrls = import.meta.glob<string>('./protobuf/fixtures/*.pb', {
  query: '?url&inline',
  import: 'default',
  eager: true,
})
const protobufFixture = (name: string) => {
  const url = pbUrls[`./protobuf/fixtures/${name}`]!
  return Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (ch) => ch.charCodeAt(0))
}
const policy = (rules: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra })

let log: MockInstance<typeof console.log>
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
})
afterEach(() => log.mockRestore())

/** One request through the app under `auditPolicy` ('' = none set); answers the response and the audit events. */
async function audited(
  auditPolicy: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  log.mockClear()
  const ctx = createExecutionContext()
  const init: RequestInit = { method, headers: withToken(headers) }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const res = await app.fetch(
    new Request(BASE + path, init),
    { ...env, KUBEFLARE_AUDIT_POLICY: auditPolicy } as Env,
    ctx,
  )
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"audit.k8s.io/v1"'))
  return { res, text, lines, events: lines.map((l) => JSON.parse(l) as Record<string, any>) }
}

describe('audit log', () => {
  it('writes one Metadata ResponseComplete event per request by default, in kube field order', async () => {
    const ns = await makeNamespace('audit')
    const { res, events, lines } = await audited('', 'POST', `/api/v1/namespaces/${ns}/pods?fieldManager=t`, pod('a'), {
      'user-agent': 'kubectl/v1.33.0',
      'x-forwarded-for': '203.0.113.7, 10.0.0.1',
    })
    expect(res.status).toBe(201)
    expect(events).toHaveLength(1)
    const ev = events[0]!
    expect(Object.keys(ev)).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestReceivedTimestamp',
      'stageTimestamp',
      'annotations',
    ])
    expect(ev).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: res.headers.get('audit-id'),
      stage: 'ResponseComplete',
      requestURI: `/api/v1/namespaces/${ns}/pods?fieldManager=t`,
      verb: 'create',
      user: { username: 'test-admin', uid: 'uid-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['203.0.113.7', '10.0.0.1'],
      userAgent: 'kubectl/v1.33.0',
      objectRef: { resource: 'pods', namespace: ns, apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    })
    expect(ev.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    expect(ev.stageTimestamp >= ev.requestReceivedTimestamp).toBe(true)
    expect(ev.requestObject).toBeUndefined()
    // Go escapes & in strings; the token never appears.
    expect(lines[0]).not.toContain(TEST_TOKENS.admin)
  })

  it("keeps the client's Audit-ID, and records an error's Status", async () => {
    const { res, events } = await audited('', 'GET', '/api/v1/namespaces/default/pods/nope', undefined, {
      'audit-id': 'my-audit-id-1',
    })
    expect(res.status).toBe(404)
    expect(res.headers.get('audit-id')).toBe('my-audit-id-1')
    expect(events[0]).toMatchObject({
      auditID: 'my-audit-id-1',
      verb: 'get',
      objectRef: { resource: 'pods', namespace: 'default', name: 'nope', apiVersion: 'v1' },
      responseStatus: {
        metadata: {},
        status: 'Failure',
        message: 'pods "nope" not found',
        reason: 'NotFound',
        code: 404,
      },
    })
  })

  it('audits refusals: a bad token with no user, a forbidden request with the decision', async () => {
    const bad = await audited('', 'GET', '/api/v1/namespaces', undefined, { authorization: 'Bearer not-a-token' })
    expect(bad.res.status).toBe(401)
    expect(bad.events[0]).toMatchObject({
      user: {},
      verb: 'list',
      responseStatus: { code: 401, reason: 'Unauthorized' },
    })
    expect(bad.events[0]!.annotations).toBeUndefined()
    expect(bad.lines[0]).not.toContain('not-a-token')
    const forbidden = await audited('', 'GET', '/api/v1/namespaces', undefined, bearer(TEST_TOKENS.bob))
    expect(forbidden.res.status).toBe(403)
    expect(forbidden.events[0]).toMatchObject({
      user: { username: 'bob' },
      responseStatus: { code: 403, reason: 'Forbidden' },
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
    })
  })

  it('names the real user and the impersonated one', async () => {
    const { events } = await audited('', 'GET', '/api/v1/namespaces/default/pods', undefined, {
      'impersonate-user': 'alice',
      'impersonate-group': 'team-a-devs',
    })
    expect(events[0]).toMatchObject({
      user: { username: 'test-admin' },
      impersonatedUser: { username: 'alice', groups: ['team-a-devs', 'system:authenticated'] },
    })
  })

  it('RequestResponse records both bodies, without managedFields when the policy omits them', async () => {
    const ns = await makeNamespace('audit')
    const p = policy(
      [{ level: 'RequestResponse', resources: [{ group: '', resources: ['pods'] }] }, { level: 'None' }],
      {
        omitManagedFields: true,
      },
    )
    const { events } = await audited(p, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('b', { app: 'x' }))
    expect(events).toHaveLength(2)
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete'])
    const done = events[1]!
    expect(done.level).toBe('RequestResponse')
    expect(done.requestObject).toMatchObject({ kind: 'Pod', metadata: { name: 'b', labels: { app: 'x' } } })
    expect(done.responseObject).toMatchObject({ kind: 'Pod', metadata: { name: 'b', namespace: ns } })
    expect(done.responseObject.metadata.managedFields).toBeUndefined()
    expect(Object.keys(done).indexOf('requestObject')).toBe(Object.keys(done).indexOf('responseStatus') + 1)
    // Other resources fall to the last rule: nothing is written.
    expect((await audited(p, 'GET', `/api/v1/namespaces/${ns}/services`)).events).toHaveLength(0)
  })

  it('a YAML create is recorded at Request level as the object it decodes to', async () => {
    const ns = await makeNamespace('audit')
    const ctx = createExecutionContext()
    log.mockClear()
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: "yes"\n  n: "1"\n'
    const res = await app.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/configmaps`, {
        method: 'POST',
        body: yaml,
        headers: withToken({ 'content-type': 'application/yaml' }),
      }),
      { ...env, KUBEFLARE_AUDIT_POLICY: policy([{ level: 'Request' }]) } as Env,
      ctx,
    )
    expect(res.status, await res.text()).toBe(201)
    await waitOnExecutionContext(ctx)
    const done = log.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, any>).at(-1)!
    // Read as go-yaml v2 reads YAML 1.1, as the object was: the key n is the boolean false.
    expect(done.requestObject).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'from-yaml', creationTimestamp: null },
      data: { a: 'yes', false: '1' },
    })
  })

  it('a protobuf create (kubectl 1.32+ generators) is recorded at Request level as the object it decodes to', async () => {
    const ns = await makeNamespace('audit')
    const ctx = createExecutionContext()
    log.mockClear()
    const res = await app.fetch(
      new Request(`${BASE}/api/v1/namespaces/${ns}/configmaps`, {
        method: 'POST',
        body: protobufFixture('create-configmap.1.33.pb'),
        headers: withToken({ 'content-type': 'application/vnd.kubernetes.protobuf' }),
      }),
      { ...env, KUBEFLARE_AUDIT_POLICY: policy([{ level: 'Request' }]) } as Env,
      ctx,
    )
    expect(res.status).toBe(201)
    await res.arrayBuffer()
    await waitOnExecutionContext(ctx)
    const done = log.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, any>).at(-1)!
    expect(done.requestObject).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c', creationTimestamp: null },
      data: { a: 'b' },
    })
  })

  it("records a create's and an update's object at Request level as kube's LogRequestObject does: decoded, defaulted, Go-encoded", async () => {
    const ns = await makeNamespace('audit')
    const p = policy([{ level: 'Request', resources: [{ group: '', resources: ['pods'] }] }, { level: 'None' }])
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'defaulted', labels: { app: 'x' } },
      spec: { containers: [{ name: 'c', image: 'nginx', unknownField: 1 }] },
    }
    const created = await audited(p, 'POST', `/api/v1/namespaces/${ns}/pods`, body)
    expect(created.res.status, created.text).toBe(201)
    const [received, done] = created.events
    // kube-apiserver 1.33's bytes for this body: the scheme's defaults, no uid or creationTimestamp of the server's,
    // unknown fields gone, kind before apiVersion.
    const line = created.lines[1]!
    expect(line).toContain(
      '"requestObject":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"defaulted","creationTimestamp":null,"labels":{"app":"x"}},' +
        '"spec":{"containers":[{"name":"c","image":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log",' +
        '"terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,' +
        '"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler","enableServiceLinks":true},"status":{}},',
    )
    // LogRequestObject names the created object in the objectRef (RequestReceived was written before it ran).
    expect(received!.objectRef).toEqual({ resource: 'pods', namespace: ns, apiVersion: 'v1' })
    expect(done!.objectRef).toEqual({ resource: 'pods', namespace: ns, name: 'defaulted', apiVersion: 'v1' })

    // An update: a ConfigMap (nothing else writes it meanwhile), its uid and resourceVersion named by the body.
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }
    const cms = policy([{ level: 'Request', resources: [{ group: '', resources: ['configmaps'] }] }])
    const made = await audited(cms, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm)
    expect(made.res.status, made.text).toBe(201)
    const stored = JSON.parse(made.text)
    const replaced = { ...stored, data: { a: '2' } }
    const updated = await audited(cms, 'PUT', `/api/v1/namespaces/${ns}/configmaps/cm`, replaced)
    expect(updated.res.status, updated.text).toBe(200)
    const after = updated.events[1]!
    expect(after.requestObject).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'cm',
        namespace: ns,
        uid: stored.metadata.uid,
        resourceVersion: stored.metadata.resourceVersion,
        creationTimestamp: stored.metadata.creationTimestamp,
        managedFields: stored.metadata.managedFields,
      },
      data: { a: '2' },
    })
    expect(after.objectRef).toEqual({
      resource: 'configmaps',
      namespace: ns,
      name: 'cm',
      uid: stored.metadata.uid,
      apiVersion: 'v1',
      resourceVersion: stored.metadata.resourceVersion,
    })
  })

  it("records a pod's Binding at Request level as kube decodes it (metadata's null creationTimestamp, Go's order)", async () => {
    const ns = await makeNamespace('audit')
    const unscheduled = { ...pod('b'), spec: { ...pod('b').spec, schedulerName: 'nobody' } }
    expect((await audited('', 'POST', `/api/v1/namespaces/${ns}/pods`, unscheduled)).res.status).toBe(201)
    const p = policy([{ level: 'Request', resources: [{ group: '', resources: ['pods/binding'] }] }, { level: 'None' }])
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
    }
    const bound = await audited(p, 'POST', `/api/v1/namespaces/${ns}/pods/b/binding`, binding)
    expect(bound.res.status, bound.text).toBe(201)
    expect(bound.lines.at(-1)).toContain(
      '"requestObject":{"kind":"Binding","apiVersion":"v1","metadata":{"name":"b","creationTimestamp":null},' +
        '"target":{"kind":"Node","name":"node-1","apiVersion":"v1"}},',
    )
  })

  it("records a /scale PUT's Scale as decoded, and its uid and resourceVersion in the objectRef", async () => {
    const ns = await makeNamespace('audit')
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: {
        replicas: 0,
        selector: { app: 'rc' },
        template: { ...pod('x', { app: 'rc' }), metadata: { labels: { app: 'rc' } } },
      },
    }
    expect((await audited('', 'POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, rc)).res.status).toBe(201)
    const path = `/api/v1/namespaces/${ns}/replicationcontrollers/rc/scale`
    const p = policy([{ level: 'Request', resources: [{ group: '', resources: ['replicationcontrollers/scale'] }] }])
    // The controller writes the status meanwhile: read again until a PUT meets the newest resourceVersion.
    let scale: any
    let put!: Awaited<ReturnType<typeof audited>>
    for (let i = 0; i < 10; i++) {
      scale = JSON.parse((await audited('', 'GET', path)).text)
      put = await audited(p, 'PUT', path, { ...scale, spec: { replicas: 0 }, extra: true })
      if (put.res.status !== 409) break
    }
    expect(put.res.status, put.text).toBe(200)
    const done = put.events.at(-1)!
    expect(Object.keys(done.requestObject)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status'])
    expect(done.requestObject.spec).toEqual({})
    expect(done.objectRef).toMatchObject({ uid: scale.metadata.uid, resourceVersion: scale.metadata.resourceVersion })
  })

  it('records no requestObject for a body that does not decode, as kube logs none when decoding fails', async () => {
    const ns = await makeNamespace('audit')
    const p = policy([{ level: 'Request' }])
    const bad = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: 'not a map' }
    const { res, events } = await audited(p, 'POST', `/api/v1/namespaces/${ns}/configmaps`, bad)
    expect(res.status).toBe(400)
    expect(events.at(-1)!.responseStatus.code).toBe(400)
    expect(events.at(-1)!.requestObject).toBeUndefined()
  })

  it('never writes a Secret, a token review or a token request body, whatever the policy', async () => {
    const ns = await makeNamespace('audit')
    const all = policy([{ level: 'RequestResponse' }])
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { password: 'hunter2-secret' },
    }
    const created = await audited(all, 'POST', `/api/v1/namespaces/${ns}/secrets`, secret)
    expect(created.res.status).toBe(201)
    const read = await audited(all, 'GET', `/api/v1/namespaces/${ns}/secrets/s`)
    for (const { lines, events } of [created, read]) {
      expect(events.length).toBeGreaterThan(0)
      for (const e of events) expect(e.level).toBe('Metadata')
      for (const l of lines) {
        expect(l).not.toContain('hunter2')
        expect(l).not.toContain(btoa('hunter2-secret'))
      }
    }
    const review = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: TEST_TOKENS.alice },
    }
    const reviewed = await audited(all, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', review)
    expect(reviewed.res.status).toBe(201)
    for (const l of reviewed.lines) expect(l).not.toContain(TEST_TOKENS.alice)
    const token = await audited(all, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/default/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    })
    expect(token.res.status).toBe(201)
    const issued = JSON.parse(token.text).status.token as string
    expect(issued.length).toBeGreaterThan(20)
    for (const l of token.lines) expect(l).not.toContain(issued)
    for (const e of token.events) expect(e.level).toBe('Metadata')
  })

  it('level None writes nothing; omitStages drops a stage; a watch is ResponseStarted', async () => {
    expect((await audited(policy([{ level: 'None' }]), 'GET', '/api/v1/namespaces')).events).toHaveLength(0)
    const omit = policy([{ level: 'Metadata', omitStages: ['ResponseComplete'] }])
    expect((await audited(omit, 'GET', '/api/v1/namespaces')).events.map((e) => e.stage)).toEqual(['RequestReceived'])
    const ctx = createExecutionContext()
    log.mockClear()
    const res = await app.fetch(
      new Request(`${BASE}/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1`, { headers: withToken() }),
      { ...env, KUBEFLARE_AUDIT_POLICY: '' } as Env,
      ctx,
    )
    expect(res.status).toBe(200)
    await res.body?.cancel()
    await waitOnExecutionContext(ctx)
    const stages = log.mock.calls.map((c) => JSON.parse(String(c[0])).stage)
    expect(stages).toEqual(['ResponseStarted'])
  })

  it('a deprecated /watch/ path is logged with the requestURI the client sent, not the list it is served as', async () => {
    const path = '/api/v1/watch/namespaces/default/pods/audited-watch?timeoutSeconds=1'
    const ctx = createExecutionContext()
    log.mockClear()
    const res = await app.fetch(
      new Request(BASE + path, { headers: withToken() }),
      { ...env, KUBEFLARE_AUDIT_POLICY: '' } as Env,
      ctx,
    )
    expect(res.status).toBe(200)
    await res.body?.cancel()
    await waitOnExecutionContext(ctx)
    const events = log.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, any>)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      requestURI: path,
      verb: 'watch',
      objectRef: { resource: 'pods', namespace: 'default', name: 'audited-watch' },
    })
  })

  it('an invalid policy is a 503 naming the setting, for every request', async () => {
    const { res, text } = await audited(
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Loud"}]}',
      'GET',
      '/version',
    )
    expect(res.status).toBe(503)
    expect(res.headers.get('audit-id')).toBeTruthy()
    expect(text).toContain('KUBEFLARE_AUDIT_POLICY')
    expect(text).toContain('rules[0].level: Unsupported value: \\"Loud\\"')
  })
})
