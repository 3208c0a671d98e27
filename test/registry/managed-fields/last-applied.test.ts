// Moving from client-side to server-side apply, as kube-apiserver 1.33 does it for the manager `kubectl`
// (k8s.io/apimachinery pkg/util/managedfields/internal): lastappliedmanager.go lets the applier take over conflicting
// fields whose live values still equal those of the kubectl.kubernetes.io/last-applied-configuration annotation;
// lastappliedupdater.go rewrites that annotation, when the object carries one, to the applied configuration (Go's JSON
// encoding, sorted keys, '<' '>' '&' escaped, a trailing newline; dropped when annotations would pass 256 KiB).
//
// A "client-side apply" here is what kubectl sends for one: a POST (or a patch) by kubectl-client-side-apply whose
// object carries the annotation.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any

const LAST = 'kubectl.kubernetes.io/last-applied-configuration'
const APPLY = { 'content-type': 'application/apply-patch+yaml' }
const IMAGE_PATH = '.spec.containers[name="c"].image'

// A pod no scheduler picks up, so nothing but the test writes to it.
const config = (name: string, { image = 'nginx:1.25', labels = { app: 'web' } as Record<string, string> } = {}): J => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { schedulerName: 'kubeflare-test-none', containers: [{ name: 'c', image }] },
})

/** JSON with object keys sorted, as Go encodes a map (for ASCII keys that are not integers). */
const sortedJson = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v)
}

/** The annotation kubectl's client-side apply writes: the manifest with an empty annotations map and the namespace. */
const kubectlAnnotation = (cfg: J, ns: string) =>
  sortedJson({ ...cfg, metadata: { ...cfg.metadata, annotations: {}, namespace: ns } }) + '\n'

/** `kubectl apply` (client-side) creating the object from `cfg`, with its annotation (or `annotation` as given). */
async function clientSideCreate(ns: string, cfg: J, annotation: string | null = kubectlAnnotation(cfg, ns)) {
  const body = structuredClone(cfg)
  if (annotation !== null) body.metadata.annotations = { [LAST]: annotation }
  const r = await req('POST', `/api/v1/namespaces/${ns}/pods?fieldManager=kubectl-client-side-apply`, body)
  expect(r.status, r.text).toBe(201)
  return r.json
}

function apply(ns: string, name: string, body: J, manager: string, extra = '') {
  return req(
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/${name}?fieldManager=${manager}${extra ? `&${extra}` : ''}`,
    JSON.stringify(body),
    APPLY,
  )
}

const entry = (obj: J, manager: string, operation?: string) =>
  (obj.metadata.managedFields ?? []).find(
    (e: J) => e.manager === manager && (operation === undefined || e.operation === operation),
  )
const ownsImage = (e: J) => e?.fieldsV1?.['f:spec']?.['f:containers']?.['k:{"name":"c"}']?.['f:image'] !== undefined

/**
 * The control for a case that must conflict: the same client-side create with kubectl's own annotation, the same
 * server-side apply by kubectl, which takes the image over. What differs from the case is then what refuses it.
 */
async function expectTakeover(ns: string, name = 'control') {
  await clientSideCreate(ns, config(name))
  const r = await apply(ns, name, config(name, { image: 'nginx:1.26' }), 'kubectl')
  expect(r.status, r.text).toBe(200)
  expect(r.json.spec.containers[0].image).toBe('nginx:1.26')
}

describe('server-side apply after client-side apply: takeover (lastAppliedManager)', () => {
  it('kubectl takes over a field whose live value is still the last-applied one: 200, new value, kubectl owns it', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.spec.containers[0].image).toBe('nginx:1.26')
    expect(ownsImage(entry(r.json, 'kubectl', 'Apply'))).toBe(true)
    // Taken as a forced apply takes: the client-side manager loses the field and keeps the rest.
    const csa = entry(r.json, 'kubectl-client-side-apply', 'Update')
    expect(ownsImage(csa)).toBe(false)
    expect(csa.fieldsV1['f:metadata']['f:labels']).toEqual({ '.': {}, 'f:app': {} })
  })

  it('several fields at once (a label and the image)', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26', labels: { app: 'api' } }), 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels).toEqual({ app: 'api' })
    expect(r.json.spec.containers[0].image).toBe('nginx:1.26')
  })

  it('a field changed since the client-side apply still conflicts, with whoever changed it', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const p = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/p?fieldManager=kubectl-patch`,
      { spec: { containers: [{ name: 'c', image: 'nginx:1.24' }] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    )
    expect(p.status, p.text).toBe(200)
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toBe(`Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: ${IMAGE_PATH}`)
    await expectTakeover(ns)
  })

  it('a value that differs from the last-applied one is no takeover: the conflict with the client-side manager stays', async () => {
    const ns = await makeNamespace('csa')
    // The annotation says 1.24, the object holds 1.25: client-side apply did not put that value there.
    await clientSideCreate(ns, config('p'), kubectlAnnotation(config('p', { image: 'nginx:1.24' }), ns))
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toBe(
      `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: ${IMAGE_PATH}`,
    )
    expect((await req('GET', `/api/v1/namespaces/${ns}/pods/p`)).json.spec.containers[0].image).toBe('nginx:1.25')
    await expectTakeover(ns)
  })

  it('only the conflicts the annotation does not vouch for are reported', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'), kubectlAnnotation(config('p', { image: 'nginx:1.24' }), ns))
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26', labels: { app: 'api' } }), 'kubectl')
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toBe(
      `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: ${IMAGE_PATH}`,
    )
    expect(r.json.details.causes.map((c: J) => c.field)).toEqual([IMAGE_PATH])
  })

  it('a field the annotation does not name conflicts (client-side apply did not set it)', async () => {
    const ns = await makeNamespace('csa')
    const cfg = config('p')
    cfg.metadata.labels.tier = 'web'
    // Created with a label the annotation leaves out, as if someone added it to the create by hand.
    await clientSideCreate(ns, cfg, kubectlAnnotation(config('p'), ns))
    const changed = config('p')
    changed.metadata.labels.tier = 'db'
    const r = await apply(ns, 'p', changed, 'kubectl')
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .metadata.labels.tier',
    )
    await expectTakeover(ns)
  })

  it('only for the manager kubectl: any other applier conflicts', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'my-applier')
    expect(r.status, r.text).toBe(409)
    expect(r.json.message).toBe(
      `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: ${IMAGE_PATH}`,
    )
    await expectTakeover(ns)
  })

  for (const [what, annotation] of [
    ['absent', null],
    ['empty', ''],
    ['not JSON', '{"apiVersion":"v1",'],
    ['JSON but not an object', '"x"\n'],
    ['of another apiVersion', null],
    ['of another kind', null],
    ['with a field the schema does not have', null],
  ] as const) {
    it(`an annotation ${what}: the conflict stays`, async () => {
      const ns = await makeNamespace('csa')
      let text: string | null = annotation
      if (what === 'of another apiVersion') text = kubectlAnnotation({ ...config('p'), apiVersion: 'v2' }, ns)
      if (what === 'of another kind') text = kubectlAnnotation({ ...config('p'), kind: 'Service' }, ns)
      if (what === 'with a field the schema does not have')
        text = kubectlAnnotation({ ...config('p'), spec: { ...config('p').spec, bogus: 1 } }, ns)
      await clientSideCreate(ns, config('p'), text)
      const r = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
      expect(r.status, r.text).toBe(409)
      expect(r.json.message).toBe(
        `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: ${IMAGE_PATH}`,
      )
      await expectTakeover(ns)
    })
  }

  it('keyed list items the annotation names without their defaulted key field still match (service port without protocol)', async () => {
    const ns = await makeNamespace('csa')
    const svc = (targetPort: number): J => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort }] },
    })
    const created = await req('POST', `/api/v1/namespaces/${ns}/services?fieldManager=kubectl-client-side-apply`, {
      ...svc(8080),
      metadata: { name: 's', annotations: { [LAST]: kubectlAnnotation(svc(8080), ns) } },
    })
    expect(created.status, created.text).toBe(201)
    const r = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/services/s?fieldManager=kubectl`,
      JSON.stringify(svc(8081)),
      APPLY,
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 8081 }])
  })
})

describe('server-side apply keeps the last-applied annotation up to date (lastAppliedUpdater)', () => {
  it("kubectl's apply rewrites it to the applied configuration, encoded as Go does, and does not own it", async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const applied = config('p', { image: 'nginx:1.26' })
    applied.metadata.namespace = ns
    const r = await apply(ns, 'p', applied, 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.annotations[LAST]).toBe(sortedJson(applied) + '\n')
    expect(entry(r.json, 'kubectl', 'Apply').fieldsV1['f:metadata']).not.toHaveProperty('f:annotations')
    const csa = entry(r.json, 'kubectl-client-side-apply', 'Update')
    expect(csa.fieldsV1['f:metadata']['f:annotations']).toEqual({ '.': {}, [`f:${LAST}`]: {} })
  })

  it('keys in byte order (integer-like ones too), HTML characters escaped, other annotations kept', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const applied = config('p')
    applied.metadata.labels = { b: '1', a: '2', '10': 'x', '9': 'y' }
    applied.metadata.annotations = { note: 'a<b & c>d' }
    const r = await apply(ns, 'p', applied, 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.annotations.note).toBe('a<b & c>d')
    expect(r.json.metadata.annotations[LAST]).toBe(
      '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"note":"a\\u003cb \\u0026 c\\u003ed"},"labels":{"10":"x","9":"y","a":"2","b":"1"},"name":"p"},' +
        '"spec":{"containers":[{"image":"nginx:1.25","name":"c"}],"schedulerName":"kubeflare-test-none"}}\n',
    )
  })

  it('an identical second apply changes nothing (same resourceVersion)', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const first = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
    expect(first.status, first.text).toBe(200)
    const again = await apply(ns, 'p', config('p', { image: 'nginx:1.26' }), 'kubectl')
    expect(again.status, again.text).toBe(200)
    expect(again.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion)
  })

  it('only an object that carries it has it rewritten: none is added, on an update or a create', async () => {
    const ns = await makeNamespace('csa')
    const extra = (name: string) => config(name, { labels: { app: 'web', extra: 'x' } })
    await clientSideCreate(ns, config('with'))
    const withIt = await apply(ns, 'with', extra('with'), 'kubectl')
    expect(withIt.status, withIt.text).toBe(200)
    expect(JSON.parse(withIt.json.metadata.annotations[LAST]).metadata.labels).toEqual({ app: 'web', extra: 'x' })
    await clientSideCreate(ns, config('without'), null)
    const r = await apply(ns, 'without', extra('without'), 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.annotations).toBeUndefined()
    const created = await apply(ns, 'fresh', config('fresh'), 'kubectl')
    expect(created.status, created.text).toBe(201)
    expect(created.json.metadata.annotations).toBeUndefined()
  })

  it('an unusable one (not JSON) is rewritten all the same', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'), 'garbage')
    const applied = config('p')
    const r = await apply(ns, 'p', applied, 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.annotations[LAST]).toBe(sortedJson(applied) + '\n')
  })

  it("another manager's apply leaves it as it was", async () => {
    const ns = await makeNamespace('csa')
    const before = await clientSideCreate(ns, config('p'))
    const r = await apply(ns, 'p', config('p', { labels: { app: 'web', extra: 'x' } }), 'my-applier')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels.extra).toBe('x')
    expect(r.json.metadata.annotations[LAST]).toBe(before.metadata.annotations[LAST])
    const byKubectl = await apply(ns, 'p', config('p', { labels: { app: 'web', extra: 'x' } }), 'kubectl')
    expect(byKubectl.status, byKubectl.text).toBe(200)
    expect(byKubectl.json.metadata.annotations[LAST]).not.toBe(before.metadata.annotations[LAST])
  })

  it('a create whose applied configuration carries one: rewritten to the configuration without it', async () => {
    const ns = await makeNamespace('csa')
    const applied = config('p')
    applied.metadata.annotations = { [LAST]: 'stale' }
    const r = await apply(ns, 'p', applied, 'kubectl')
    expect(r.status, r.text).toBe(201)
    const { annotations: _, ...meta } = applied.metadata
    expect(r.json.metadata.annotations[LAST]).toBe(
      sortedJson({ ...applied, metadata: { ...meta, annotations: {} } }) + '\n',
    )
  })

  it('dropped when it would take the annotations past 256 KiB; the others stay', async () => {
    const ns = await makeNamespace('csa')
    await clientSideCreate(ns, config('p'))
    const applied = config('p')
    applied.metadata.annotations = { big: 'x'.repeat(150 * 1024) }
    const r = await apply(ns, 'p', applied, 'kubectl')
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.annotations.big).toHaveLength(150 * 1024)
    expect(r.json.metadata.annotations).not.toHaveProperty(LAST)
  })
})
