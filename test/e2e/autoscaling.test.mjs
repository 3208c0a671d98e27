// HorizontalPodAutoscalers through kubectl 1.33 and 1.27: the walkthrough's autoscaling/v2 manifest applied and
// listed (TARGETS `cpu: <unknown>/50%`: no metrics API is served, as on a cluster without metrics-server),
// `kubectl autoscale` (1.33 posts autoscaling/v2, 1.27 autoscaling/v1) scaling the Deployment up to --min within a
// resync period, `kubectl describe hpa` with kube's conditions and events, and the v1 view of a v2 object.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const ns = uniqueNs('hpa')
const k = (v, args, opts) => kubectl(v, ['-n', ns, ...args], opts)

/** The walkthrough's php-apache Deployment (docs/tasks/run-application/horizontal-pod-autoscale-walkthrough). */
const deployment = (name) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { run: name } },
    template: {
      metadata: { labels: { run: name } },
      spec: {
        containers: [
          {
            name,
            image: 'registry.k8s.io/hpa-example',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '500m' }, requests: { cpu: '200m' } },
          },
        ],
      },
    },
  },
})

/** The walkthrough's HPA, as autoscaling/v2 YAML. */
const HPA_YAML = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: php-apache
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: php-apache
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`

async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

const replicasOf = async (name) =>
  (await api('GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).body.spec.replicas

describe('HorizontalPodAutoscalers with kubectl', () => {
  before(async () => {
    await kubectl('1.33', ['create', 'namespace', ns])
    for (const name of ['php-apache', 'web33', 'web27'])
      await k('1.33', ['apply', '-f', '-'], { input: JSON.stringify(deployment(name)) })
  })
  after(async () => {
    await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('applies the docs manifest and lists it as kube does (both kubectl versions)', async () => {
    const applied = await k('1.33', ['apply', '-f', '-'], { input: HPA_YAML })
    assert.equal(applied.stdout, 'horizontalpodautoscaler.autoscaling/php-apache created\n')
    const again = await k('1.27', ['apply', '-f', '-'], { input: HPA_YAML })
    assert.equal(again.stdout, 'horizontalpodautoscaler.autoscaling/php-apache unchanged\n')
    for (const v of ['1.33', '1.27']) {
      const t = parseTable((await k(v, ['get', 'hpa'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'])
      assert.deepEqual(t.rows[0].slice(0, 6), [
        'php-apache',
        'Deployment/php-apache',
        'cpu: <unknown>/50%',
        '1',
        '10',
        '0',
      ])
    }
    // kubectl explain reads the preferred version's OpenAPI.
    const explained = (await k('1.33', ['explain', 'hpa.spec.scaleTargetRef'])).stdout
    assert.match(explained, /GROUP:\s+autoscaling\nKIND:\s+HorizontalPodAutoscaler\nVERSION:\s+v2/)
    assert.match(explained, /FIELD: scaleTargetRef <CrossVersionObjectReference>/)
    // Server-side apply of the same manifest takes it over from kubectl's client-side apply.
    const ssa = await k('1.33', ['apply', '--server-side', '-f', '-'], { input: HPA_YAML })
    assert.equal(ssa.stdout, 'horizontalpodautoscaler.autoscaling/php-apache serverside-applied\n')
    // The same object through autoscaling/v1.
    const v1 = JSON.parse(
      (await k('1.33', ['get', 'horizontalpodautoscalers.v1.autoscaling', 'php-apache', '-o', 'json'])).stdout,
    )
    assert.equal(v1.apiVersion, 'autoscaling/v1')
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 50)
  })

  for (const [v, version] of [
    ['1.33', 'v2'],
    ['1.27', 'v1'],
  ]) {
    it(`kubectl ${v} autoscale posts autoscaling/${version}; the Deployment is scaled up to --min; describe shows why`, async () => {
      const name = `web${v.slice(2)}`
      const r = await k(v, ['autoscale', 'deployment', name, '--min=2', '--max=5', '--cpu-percent=80', '-v=6'])
      assert.equal(r.stdout, `horizontalpodautoscaler.autoscaling/${name} autoscaled\n`)
      // kubectl 1.33 logs `verb="POST" url="..." status="201 Created"`, 1.27 `POST <url> 201 Created`.
      const url = `/apis/autoscaling/${version}/namespaces/${ns}/horizontalpodautoscalers\\?`
      assert.match(r.stderr, new RegExp(`POST[^\\n]*${url}[^\\n]*201`))
      assert.equal(await replicasOf(name), 1)
      // kube's controller takes the HPA up a resync period (15 s) after it appears.
      await waitFor(`${name} scaled to 2`, async () => (await replicasOf(name)) === 2, 90_000)
      const hpa = await waitFor(
        'the metrics pass',
        async () => {
          const h = (await api('GET', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${name}`)).body
          return h.status.conditions?.some((c) => c.type === 'ScalingActive') ? h : undefined
        },
        90_000,
      )
      assert.equal(hpa.status.currentReplicas, 2)
      assert.deepEqual(hpa.status.currentMetrics, [{ type: '' }])
      const described = (await k(v, ['describe', 'hpa', name])).stdout
      assert.match(described, new RegExp(`Reference:\\s+Deployment/${name}`))
      assert.match(described, /Min replicas:\s+2/)
      assert.match(described, /Max replicas:\s+5/)
      assert.match(
        described,
        /AbleToScale\s+True\s+SucceededGetScale\s+the HPA controller was able to get the target's current scale/,
      )
      assert.match(
        described,
        /ScalingActive\s+False\s+FailedGetResourceMetric\s+the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource \(get pods\.metrics\.k8s\.io\)/,
      )
      assert.match(
        described,
        /Normal\s+SuccessfulRescale\s+.*horizontal-pod-autoscaler\s+New size: 2; reason: Current number of replicas below Spec\.MinReplicas/,
      )
      assert.match(
        described,
        /Warning\s+FailedComputeMetricsReplicas\s+.*invalid metrics \(1 invalid out of 1\), first error is: failed to get cpu resource metric value/,
      )
    })
  }
})
