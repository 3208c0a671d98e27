// The /api/v1beta1 endpoints through the Worker: the seed's examples round-trip, one store shared with v1, the seed's
// create/update/delete semantics (currentState ignored, optimistic locking, label updates), creation tokens, errors.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../../helpers'
import { seedPod, seedRC, seedService } from '../../registry/v1beta1/examples'

const beta = (ns: string, path: string, extra = '') => `/api/v1beta1/${path}?namespace=${ns}${extra}`

/** The fields a client wrote, as a v1beta1 GET shows them (server-set ones aside). */
function written(o: any) {
  const { uid, creationTimestamp, resourceVersion, selfLink, namespace, currentState, ...rest } = o
  if (rest.desiredState?.manifest) delete rest.desiredState.manifest.uuid
  if (rest.desiredState) delete rest.desiredState.host
  return rest
}

describe('v1beta1 round trips of the seed examples', () => {
  it('pod', async () => {
    const ns = await makeNamespace('b1')
    const r = await req('POST', beta(ns, 'pods'), seedPod())
    expect(r.status, r.text).toBe(201)
    expect(r.json).toMatchObject({
      kind: 'Pod',
      apiVersion: 'v1beta1',
      id: 'web',
      namespace: ns,
      selfLink: `/api/v1beta1/pods/web?namespace=${ns}`,
    })
    expect(typeof r.json.resourceVersion).toBe('number')
    expect(r.json.uid).toMatch(/^[0-9a-f-]{36}$/)
    // Its nodeSelector fits no node: the scheduler records PodScheduled=False on it. The PUT below carries the GET's
    // resourceVersion, so read it once the scheduler has written (a GET taken before would conflict, as with kube).
    await waitFor('PodScheduled=False', async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
      return g.json.status?.conditions?.some((c: any) => c.type === 'PodScheduled' && c.status === 'False')
    })
    const got = await req('GET', beta(ns, 'pods/web'))
    // What the client wrote comes back as written, with the server's defaults added; readOnly: false does not (it is
    // stored as a v1 VolumeMount, whose omitempty bool Go leaves out when false).
    const expected: any = seedPod()
    delete (expected.desiredState.manifest.containers[0]!.volumeMounts[0] as { readOnly?: boolean }).readOnly
    // ServiceAccount admission's API access volume, which v1beta1 has no source for: it shows by name and mount only.
    const apiAccess = expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/)
    expected.desiredState.manifest.volumes.push({ name: apiAccess })
    expected.desiredState.manifest.containers[0].volumeMounts.push({
      name: apiAccess,
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    })
    expect(written(got.json)).toMatchObject(expected)
    // A v1beta1 PUT of what the GET gave keeps the projected volume it cannot express.
    const put = await req('PUT', beta(ns, 'pods/web'), got.json)
    expect(put.status, put.text).toBe(200)
    const v1 = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    expect(v1.json.spec.volumes[1].projected.sources).toHaveLength(3)
    expect('readOnly' in got.json.desiredState.manifest.containers[0].volumeMounts[0]).toBe(false)
    expect(got.json.desiredState.manifest).toMatchObject({
      dnsPolicy: 'ClusterFirst',
      containers: [{ livenessProbe: { timeoutSeconds: 1 } }],
    })
  })

  it('replication controller', async () => {
    const ns = await makeNamespace('b1')
    const r = await req('POST', beta(ns, 'replicationControllers'), seedRC())
    expect(r.status, r.text).toBe(201)
    const expected = seedRC() as any
    // The template's manifest id has no v1 home; it is not kept.
    delete expected.desiredState.podTemplate.desiredState.manifest.id
    expect(written(r.json)).toMatchObject(expected)
    expect(r.json.desiredState.podTemplate.desiredState.manifest).toMatchObject({
      restartPolicy: { always: {} },
      containers: [{ imagePullPolicy: 'PullAlways', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
    })
    const got = await waitFor('currentState.replicas 2', async () => {
      const g = await req('GET', beta(ns, 'replicationControllers/web-rc'))
      return g.json.currentState.replicas === 2 ? g.json : undefined
    })
    expect(written(got)).toMatchObject(expected)
  })

  it('service', async () => {
    const ns = await makeNamespace('b1')
    const r = await req('POST', beta(ns, 'services'), seedService())
    expect(r.status, r.text).toBe(201)
    expect(r.json.portalIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    const got = await req('GET', beta(ns, 'services/web'))
    const { portalIP, ...rest } = written(got.json)
    expect(portalIP).toBe(r.json.portalIP)
    expect(rest).toEqual(seedService())
  })
})

describe('one store for v1beta1 and v1', () => {
  it('a pod created through v1beta1 is the same object through v1, and the other way round', async () => {
    const ns = await makeNamespace('b1')
    const b = await req('POST', beta(ns, 'pods'), seedPod())
    const v1 = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    expect(v1.status).toBe(200)
    expect(v1.json.metadata.uid).toBe(b.json.uid)
    expect(v1.json.spec.containers[0]).toMatchObject({
      name: 'nginx',
      image: 'nginx',
      command: ['nginx', '-g', 'daemon off;'],
      imagePullPolicy: 'IfNotPresent',
    })
    expect(v1.json.spec.volumes[0]).toMatchObject({ name: 'data', emptyDir: {} })
    const made = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('from-v1', { tier: 'x' }))
    // The scheduler and kubelet write the pod until it runs: compare resourceVersions once they are done with it.
    const settled = await waitFor('from-v1 running and ready', async () => {
      const g = (await req('GET', `/api/v1/namespaces/${ns}/pods/from-v1`)).json
      const ready = g.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')
      return g.status?.phase === 'Running' && ready ? g : undefined
    })
    const seen = await req('GET', beta(ns, 'pods/from-v1'))
    expect(seen.json).toMatchObject({
      id: 'from-v1',
      uid: made.json.metadata.uid,
      labels: { tier: 'x' },
      resourceVersion: Number(settled.metadata.resourceVersion),
    })
    expect(seen.json.desiredState.manifest.containers[0]).toMatchObject({
      name: 'c',
      image: 'nginx:1.25',
      imagePullPolicy: 'PullIfNotPresent',
    })
  })

  it('lists in v1beta1 shape, selected by ?labels= or labelSelector', async () => {
    const ns = await makeNamespace('b1')
    await req('POST', beta(ns, 'pods'), seedPod())
    await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('other', { name: 'other' }))
    const all = await req('GET', beta(ns, 'pods'))
    expect(all.json).toMatchObject({
      kind: 'PodList',
      apiVersion: 'v1beta1',
      selfLink: `/api/v1beta1/pods?namespace=${ns}`,
    })
    expect(typeof all.json.resourceVersion).toBe('number')
    expect(all.json.items.map((p: any) => p.id)).toEqual(['other', 'web'])
    const byLabels = await req('GET', beta(ns, 'pods', '&labels=name%3Dweb'))
    expect(byLabels.json.items.map((p: any) => p.id)).toEqual(['web'])
    const bySelector = await req('GET', beta(ns, 'pods', '&labelSelector=name!%3Dweb'))
    expect(bySelector.json.items.map((p: any) => p.id)).toEqual(['other'])
    const bad = await req('GET', beta(ns, 'pods', '&labels=%3D%3D'))
    expect(bad.status).toBe(400)
    const empty = await req('GET', beta(ns, 'services'))
    expect(empty.json).toMatchObject({ kind: 'ServiceList', items: [] })
  })

  it('the namespace is `default` unless ?namespace= names another', async () => {
    const name = `b1-default-${Date.now().toString(36)}`
    const r = await req('POST', '/api/v1beta1/pods', { ...seedPod(), id: name })
    expect(r.status, r.text).toBe(201)
    expect(r.json.namespace).toBe('default')
    expect(r.json.selfLink).toBe(`/api/v1beta1/pods/${name}`)
    expect((await req('GET', `/api/v1/namespaces/default/pods/${name}`)).status).toBe(200)
    expect((await req('DELETE', `/api/v1beta1/pods/${name}`)).json).toEqual({ success: true })
  })
})

describe('v1beta1 write semantics', () => {
  it('POST ignores currentState', async () => {
    const ns = await makeNamespace('b1')
    const r = await req('POST', beta(ns, 'pods'), {
      ...seedPod(),
      currentState: { status: 'Running', host: 'minion-9', podIP: '1.2.3.4' },
    })
    expect(r.status).toBe(201)
    expect(r.json.currentState.host).toBeUndefined()
    expect(r.json.currentState.podIP).toBeUndefined()
    const rc = await req('POST', beta(ns, 'replicationControllers'), {
      ...seedRC(),
      desiredState: { ...seedRC().desiredState, replicas: 0 },
      currentState: { replicas: 7 },
    })
    expect(rc.json.currentState).toEqual({ replicas: 0 })
  })

  it('PUT replaces desiredState and labels, ignores currentState, and is optimistically locked', async () => {
    const ns = await makeNamespace('b1')
    const created = await req('POST', beta(ns, 'replicationControllers'), {
      ...seedRC(),
      desiredState: { ...seedRC().desiredState, replicas: 0 },
    })
    // The replication manager writes the RC's status right after the create: read it once that has landed.
    await waitFor('web-rc observed', async () => {
      const v1 = await req('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/web-rc`)
      return v1.json?.status?.observedGeneration === 1
    })
    const got = (await req('GET', beta(ns, 'replicationControllers/web-rc'))).json
    const update = {
      ...got,
      labels: { name: 'web', tier: 'frontend' },
      desiredState: {
        ...got.desiredState,
        replicas: 1,
        podTemplate: { ...got.desiredState.podTemplate, labels: { name: 'web', v: '2' } },
      },
      currentState: { replicas: 99 },
    }
    const put = await req('PUT', beta(ns, 'replicationControllers/web-rc'), update)
    expect(put.status, put.text).toBe(200)
    expect(put.json.labels).toEqual({ name: 'web', tier: 'frontend' })
    expect(put.json.desiredState.replicas).toBe(1)
    expect(put.json.desiredState.podTemplate.labels).toEqual({ name: 'web', v: '2' })
    expect(put.json.currentState.replicas).not.toBe(99)
    expect(put.json.resourceVersion).toBeGreaterThan(created.json.resourceVersion)
    // The same (now stale) resourceVersion again: 409.
    const stale = await req('PUT', beta(ns, 'replicationControllers/web-rc'), update)
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 })
    // Without a resourceVersion the PUT is unconditional; an omitted field is deleted.
    const { resourceVersion, ...unconditional } = update
    delete (unconditional as any).labels
    const again = await req('PUT', beta(ns, 'replicationControllers/web-rc'), unconditional)
    expect(again.status, again.text).toBe(200)
    // Labels left out: deleted, then defaulted from the template as v1 does for an RC without labels.
    expect(again.json.labels).toEqual({ name: 'web', v: '2' })
    const v1 = await req('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/web-rc`)
    expect(v1.json.metadata.generation).toBe(2)
  })

  it('label updates work on pods, v1-only fields survive a v1beta1 PUT', async () => {
    const ns = await makeNamespace('b1')
    const withArgs = pod('p', { a: '1' })
    ;(withArgs.spec.containers[0] as any).args = ['-v']
    await req('POST', `/api/v1/namespaces/${ns}/pods`, withArgs)
    // The scheduler and kubelet write the pod meanwhile: resourceVersion 0 makes the PUT unconditional.
    const got = (await req('GET', beta(ns, 'pods/p'))).json
    const put = await req('PUT', beta(ns, 'pods/p'), { ...got, resourceVersion: 0, labels: { a: '2', b: '3' } })
    expect(put.status, put.text).toBe(200)
    expect(put.json.labels).toEqual({ a: '2', b: '3' })
    const v1 = await req('GET', `/api/v1/namespaces/${ns}/pods/p`)
    expect(v1.json.metadata.labels).toEqual({ a: '2', b: '3' })
    expect(v1.json.spec.containers[0].args).toEqual(['-v'])
    expect(v1.json.spec.serviceAccountName).toBe('default')
  })

  it('a creation token (Idempotency-Key) makes a repeated v1beta1 create a 409 pointing at the first', async () => {
    const ns = await makeNamespace('b1')
    const first = await req('POST', beta(ns, 'pods'), seedPod(), { 'idempotency-key': 'tok-1' })
    expect(first.status).toBe(201)
    const again = await req('POST', beta(ns, 'pods'), { ...seedPod(), id: 'web-2' }, { 'idempotency-key': 'tok-1' })
    expect(again.status).toBe(409)
    expect(again.json).toMatchObject({ reason: 'AlreadyExists', details: { name: 'web', uid: first.json.uid } })
    expect((await req('GET', beta(ns, 'pods/web-2'))).status).toBe(404)
  })

  it('DELETE answers the seed success shape; errors are Status objects with v1beta1 field paths', async () => {
    const ns = await makeNamespace('b1')
    await req('POST', beta(ns, 'services'), seedService())
    const del = await req('DELETE', beta(ns, 'services/web'))
    expect(del.status).toBe(200)
    expect(del.json).toEqual({ success: true })
    const gone = await req('GET', beta(ns, 'services/web'))
    expect(gone.status).toBe(404)
    expect(gone.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 })
    const noImage = seedPod() as any
    delete noImage.desiredState.manifest.containers[0].image
    const invalid = await req('POST', beta(ns, 'pods'), noImage)
    expect(invalid.status).toBe(422)
    expect(invalid.json.message).toContain('desiredState.manifest.containers[0].image: Required value')
    expect(invalid.json.details.causes[0].field).toBe('desiredState.manifest.containers[0].image')
    const badType = await req('POST', beta(ns, 'replicationControllers'), {
      id: 'x',
      desiredState: { replicas: 'two' },
    })
    expect(badType.status).toBe(400)
    expect(badType.json.message).toContain('desiredState.replicas')
    // A missing field is never a decoding error: Go's decoder leaves the port zero, and validation answers.
    const noPort = await req('POST', beta(ns, 'services'), { ...seedService(), port: undefined })
    expect(noPort.status).toBe(422)
    expect(noPort.json.message).toBe(
      'Service "web" is invalid: port: Invalid value: 0: must be between 1 and 65535, inclusive',
    )
    expect((await req('PATCH', beta(ns, 'pods/web'), {})).status).toBe(405)
  })

  it('RCs through v1beta1 drive the replication manager; deleting one deletes its pods', async () => {
    const ns = await makeNamespace('b1')
    await req('POST', beta(ns, 'replicationControllers'), seedRC())
    await waitFor('2 replicas', async () =>
      (await req('GET', beta(ns, 'replicationControllers/web-rc'))).json.currentState.replicas === 2 ? true : undefined,
    )
    const pods = await req('GET', beta(ns, 'pods', '&labels=name%3Dweb'))
    expect(pods.json.items).toHaveLength(2)
    expect(pods.json.items[0].generateName).toBe('web-rc-')
    const got = (await req('GET', beta(ns, 'replicationControllers/web-rc'))).json
    await req('PUT', beta(ns, 'replicationControllers/web-rc'), {
      ...got,
      resourceVersion: 0,
      desiredState: { ...got.desiredState, replicas: 3 },
    })
    await waitFor('3 replicas', async () =>
      (await req('GET', beta(ns, 'replicationControllers/web-rc'))).json.currentState.replicas === 3 ? true : undefined,
    )
    expect((await req('DELETE', beta(ns, 'replicationControllers/web-rc'))).json).toEqual({ success: true })
    await waitFor('pods gone', async () =>
      (await req('GET', beta(ns, 'pods'))).json.items.length === 0 ? true : undefined,
    )
  })
})
