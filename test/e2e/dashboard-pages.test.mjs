// The dashboard's large lists, live custom resources and workload detail pages in a real browser (Debian's headless
// Chromium driven by playwright-core): a namespace of 1,200 pods shows its first page of 500 at once and loads the
// next ones with a keyboard-reachable "Load more" button, while pods made, changed or deleted past the loaded pages
// are counted and kept for their page, and pods made inside them appear live; a continue token the server no longer
// honours (410) lists again from the start; a custom resource made after its page opened appears, changes and goes
// without a reload; a Deployment's row opens its page, which shows its ReplicaSet, its pods turning ready as it is
// scaled, its rollout counts and its events; a CronJob's page shows the Job made from it, whose page shows its pod
// and its completion; a DaemonSet's page shows its pod on each node. Screenshots go to test-output/dashboard/.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, KUBEFLARE_URL, TOKEN, api, kubectl, uniqueNs } from './helpers.mjs'
import { openBrowser, SHOTS } from './dashboard-browser.mjs'

const kubectlLatest = KUBECTL_VERSIONS.at(-1)
const PODS = 1200
const GROUP = `ui${Date.now().toString(36)}.example.com`
const CRD = `widgets.${GROUP}`

let page
let problems = []
let shot
let browser
const ns = uniqueNs('ui-pages')
const podName = (i) => `p-${String(i).padStart(4, '0')}`
/** A pod no scheduler takes (its schedulerName is nobody's): it stays Pending and costs nothing but its row. */
const idlePod = (name) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns, labels: { app: 'many' } },
  spec: { schedulerName: 'nobody', containers: [{ name: 'main', image: 'busybox:1.36' }] },
})

async function createPod(name) {
  const res = await api('POST', `/api/v1/namespaces/${ns}/pods`, idlePod(name))
  assert.equal(res.status, 201, res.text)
}

before(async () => {
  browser = await openBrowser(/status of 4(03|04|10)|ERR_NETWORK_CHANGED/)
  ;({ page, problems, shot } = browser)
  assert.equal((await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201)
  // 1,200 pods, sixteen requests at a time.
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < PODS) await createPod(podName(next++))
    }),
  )
})

after(async () => {
  await browser?.close()
  await api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})
  await api('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD}`).catch(() => {})
})

/**
 * Opens a dashboard address. Chromium cancels what is under way when the machine's network interfaces change
 * (ERR_NETWORK_CHANGED: other tests make bridges and veths on this machine); such a navigation is made again.
 */
async function visit(address) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.goto(`${KUBEFLARE_URL}/ui/${address}`)
    } catch (e) {
      if (attempt < 3 && /ERR_NETWORK_CHANGED|interrupted by another navigation/.test(e.message)) continue
      throw e
    }
  }
}

const row = (name) => page.locator(`tr[data-name="${name}"]`)
const caption = (text) => page.locator('caption', { hasText: text })

describe('dashboard: large lists, live custom resources, workload pages', () => {
  it('signs in', async () => {
    await visit('')
    await page.getByLabel('Bearer token').fill(TOKEN)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText(/^Signed in as /).waitFor()
    await page.getByLabel('Namespace').fill(ns)
    await page.getByLabel('Namespace').press('Enter')
  })

  it('shows the first 500 of 1,200 pods at once, counts changes past them, and loads the rest on demand', async () => {
    const lists = []
    page.on('request', (r) => {
      const u = new URL(r.url())
      if (u.pathname === `/api/v1/namespaces/${ns}/pods` && !u.searchParams.has('watch')) lists.push(u)
    })
    await visit('#/namespaces')
    await visit('#/pods')
    await caption(`Pods in ${ns} (500 of ${PODS})`).waitFor({ timeout: 20_000 })
    assert.equal(await page.locator('tbody tr').count(), 500)
    await row('p-0499').waitFor()
    assert.equal(await row('p-0500').count(), 0)
    assert.equal(lists[0].searchParams.get('limit'), '500')
    // Inside the loaded range: appears at once. Past it: counted, not drawn.
    await createPod('p-0100-late')
    await row('p-0100-late').waitFor({ timeout: 15_000 })
    await caption(`(501 of ${PODS + 1})`).waitFor()
    await createPod('p-0900-late')
    await caption(`(501 of ${PODS + 2})`).waitFor({ timeout: 15_000 })
    assert.equal(await row('p-0900-late').count(), 0)
    assert.equal((await api('DELETE', `/api/v1/namespaces/${ns}/pods/p-0700?gracePeriodSeconds=0`)).status, 200)
    await caption(`(501 of ${PODS + 1})`).waitFor({ timeout: 15_000 })
    // The page's top, and its end with the pager (the whole page would be 500 rows tall).
    await page.screenshot({ path: join(SHOTS, 'pods-first-page.png') })

    // The button is reached with the keyboard and pressed with Enter.
    const button = page.getByRole('button', { name: 'Load more pods' })
    await button.focus()
    await page.screenshot({ path: join(SHOTS, 'pods-load-more.png') })
    await page.keyboard.press('Enter')
    await caption(`(1001 of ${PODS + 1})`).waitFor({ timeout: 20_000 })
    // The second page is the snapshot of the first one's version, with what happened since: the pod made past the
    // first page is there, the one deleted is not.
    await row('p-0900-late').waitFor()
    await row('p-0999').waitFor()
    assert.equal(await row('p-0700').count(), 0)
    assert.equal(await row('p-1000').count(), 0)
    const continued = lists.filter((u) => u.searchParams.has('continue'))
    assert.equal(continued.length, 1)
    assert.equal(continued[0].searchParams.get('limit'), '500')
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Load more pods')

    await page.keyboard.press('Enter')
    await caption(`Pods in ${ns} (${PODS + 1})`).waitFor({ timeout: 20_000 })
    await row(podName(PODS - 1)).waitFor()
    await page.getByText(`All ${PODS + 1} pods loaded.`).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Load more pods' }).isVisible(), false)
    // Everything is loaded: a pod made now appears live wherever it sorts, and the table drawn again for it keeps
    // the keyboard's place on the link it was on.
    await row('p-0100-late').getByRole('link', { name: 'p-0100-late' }).focus()
    await createPod('p-5000')
    await row('p-5000').waitFor({ timeout: 15_000 })
    await caption(`Pods in ${ns} (${PODS + 2})`).waitFor()
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'p-0100-late')
  })

  it('lists again from the start when a continue token has expired (410)', async () => {
    let refused = 0
    await page.route(
      (url) => url.pathname === `/api/v1/namespaces/${ns}/pods` && url.searchParams.has('continue'),
      (route) => {
        if (refused++ > 0) return route.continue()
        return route.fulfill({
          status: 410,
          contentType: 'application/json',
          body: JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: 'The provided continue parameter is too old to display a consistent list result.',
            reason: 'Expired',
            code: 410,
          }),
        })
      },
    )
    const lists = []
    const listed = (r) => {
      const u = new URL(r.url())
      if (u.pathname === `/api/v1/namespaces/${ns}/pods` && !u.searchParams.has('watch')) lists.push(u)
    }
    page.on('request', listed)
    await visit('#/namespaces')
    await visit('?limit=400#/pods')
    await caption(`Pods in ${ns} (400 of ${PODS + 2})`).waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Load more pods' }).click()
    // Refused once, listed again from the first page, then as deep as asked.
    await caption(`Pods in ${ns} (800 of ${PODS + 2})`).waitFor({ timeout: 20_000 })
    page.off('request', listed)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    assert.equal(refused, 2)
    assert.deepEqual(
      lists.map((u) => (u.searchParams.has('continue') ? 'continue' : 'first')),
      ['first', 'continue', 'first', 'continue'],
    )
    assert.ok(lists.every((u) => u.searchParams.get('limit') === '400'))
  })

  it('shows a custom resource made after its page opened, changes it and sees it go, without a reload', async () => {
    await visit('#/custom')
    await page.getByRole('heading', { name: 'Custom resources' }).waitFor()
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: CRD },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } },
                },
              },
            },
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
              { name: 'Color', type: 'string', jsonPath: '.spec.color' },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    }
    assert.equal((await api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201)
    // The definition appears on the open list page, live.
    await row(CRD).getByRole('link', { name: CRD }).waitFor({ timeout: 15_000 })
    await kubectl(kubectlLatest, ['wait', '--for=condition=Established', `crd/${CRD}`, '--timeout=30s'])
    const loaded = await page.evaluate(() => performance.getEntriesByType('navigation').length)
    await row(CRD).getByRole('link', { name: CRD }).click()
    await page.getByRole('heading', { name: `Custom resources: ${CRD}` }).waitFor()
    await caption(`0 Widget objects in ${ns}`).waitFor({ timeout: 15_000 })
    const path = `/apis/${GROUP}/v1/namespaces/${ns}/widgets`
    const made = await api('POST', path, {
      apiVersion: `${GROUP}/v1`,
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3, color: 'red' },
    })
    assert.equal(made.status, 201, made.text)
    await row('w1').waitFor({ timeout: 15_000 })
    await caption(`1 Widget objects in ${ns}`).waitFor()
    const cells = () => row('w1').locator('td').allTextContents()
    assert.deepEqual((await cells()).slice(0, 3), ['w1', '3', 'red'])
    assert.match((await cells())[3], /^\d+s$/)
    const patched = await api(
      'PATCH',
      `${path}/w1`,
      { spec: { size: 7 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    assert.equal(patched.status, 200, patched.text)
    await row('w1').locator('td', { hasText: /^7$/ }).waitFor({ timeout: 15_000 })
    await shot('custom-live')
    assert.equal((await api('DELETE', `${path}/w1`)).status, 200)
    await row('w1').waitFor({ state: 'detached', timeout: 15_000 })
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), loaded, 'no reload')
  })

  it("opens a Deployment's page from its row: its ReplicaSet, its pods turning ready, its rollout and events", async () => {
    await kubectl(kubectlLatest, [
      'create',
      'deployment',
      'web',
      '-n',
      ns,
      '--image=busybox:1.36',
      '--replicas=1',
      '--',
      'sleep',
      '600',
    ])
    await visit('#/workloads')
    const link = page.getByRole('link', { name: 'web', exact: true })
    await link.waitFor({ timeout: 15_000 })
    await link.click()
    await page.getByRole('heading', { name: `Deployment ${ns}/web` }).waitFor()
    await page.waitForURL(/#\/workloads\/deployments\/[^/]+\/web$/)
    // Its ReplicaSet, and its pod (not the 1,200 idle pods of the namespace) once Running and ready.
    await caption('1 ReplicaSets of web').waitFor({ timeout: 15_000 })
    const rs = (await api('GET', `/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3Dweb`)).body.items[0]
    await row(rs.metadata.name).getByRole('link', { name: rs.metadata.name }).waitFor()
    await caption('Pods of Deployment web (1)').waitFor({ timeout: 20_000 })
    await page.locator('tr[data-name="Ready"] td.count', { hasText: '1 of 1' }).waitFor({ timeout: 20_000 })
    // Scaled while the page is open: the new pods appear and turn ready, the counts follow.
    await kubectl(kubectlLatest, ['scale', 'deployment', 'web', '-n', ns, '--replicas=3'])
    await caption('Pods of Deployment web (3)').waitFor({ timeout: 20_000 })
    await page.locator('tr[data-name="Available"] td.count', { hasText: '3 of 3' }).waitFor({ timeout: 30_000 })
    await page.locator('tr[data-name="Ready"] td.count', { hasText: '3 of 3' }).waitFor()
    const pods = page.locator('tr[data-name^="web-"]').filter({ has: page.locator('td.ready', { hasText: '1/1' }) })
    await page.waitForFunction(
      () => document.querySelectorAll('tr[data-name^="web-"] td.phase-Running').length === 3,
      null,
      { timeout: 20_000 },
    )
    assert.equal(await pods.count(), 3)
    await page.getByRole('cell', { name: 'MinimumReplicasAvailable', exact: true }).waitFor()
    await page.getByRole('cell', { name: 'ScalingReplicaSet', exact: true }).first().waitFor({ timeout: 15_000 })
    await page.getByText(/Scaled up replica set web-\w+ to 3 from 1/).waitFor({ timeout: 15_000 })
    await shot('deployment')
    await page.setViewportSize({ width: 390, height: 844 })
    await shot('deployment-phone')
    await page.setViewportSize({ width: 1280, height: 900 })
    // The ReplicaSet's own page, from its row.
    await row(rs.metadata.name).getByRole('link', { name: rs.metadata.name }).click()
    await page.getByRole('heading', { name: `ReplicaSet ${ns}/${rs.metadata.name}` }).waitFor()
    await caption(`Pods of ReplicaSet ${rs.metadata.name} (3)`).waitFor({ timeout: 15_000 })
  })

  it("opens a CronJob's page with the Job made from it, and that Job's page with its pod and completion", async () => {
    const k = (args) => kubectl(kubectlLatest, ['-n', ns, ...args])
    await k([
      'create',
      'cronjob',
      'tick',
      '--image=busybox:1.36',
      '--schedule=0 0 1 1 *',
      '--',
      'sh',
      '-c',
      'echo tick',
    ])
    // kubectl makes the Job owned by the CronJob, as the CronJob controller would.
    await k(['create', 'job', 'tick-now', '--from=cronjob/tick'])
    await visit('#/workloads')
    await caption(`1 CronJobs in ${ns}`).waitFor({ timeout: 15_000 })
    await row('tick').getByRole('link', { name: 'tick', exact: true }).click()
    await page.getByRole('heading', { name: `CronJob ${ns}/tick` }).waitFor()
    await page.getByText('0 0 1 1 *', { exact: true }).waitFor()
    await caption('1 Jobs of tick').waitFor({ timeout: 15_000 })
    await caption('Pods of CronJob tick (1)').waitFor({ timeout: 15_000 })
    await row('tick-now').getByRole('link', { name: 'tick-now' }).click()
    await page.getByRole('heading', { name: `Job ${ns}/tick-now` }).waitFor()
    await page.locator('tr[data-name="Succeeded"] td.count', { hasText: '1 of 1' }).waitFor({ timeout: 30_000 })
    await row('Complete').locator('td', { hasText: 'CompletionsReached' }).waitFor()
    await caption('Pods of Job tick-now (1)').waitFor()
    await page.locator('tr[data-name^="tick-now-"] td.phase', { hasText: /^(Completed|Succeeded)$/ }).waitFor()
    await shot('job')
  })

  it("opens a DaemonSet's page: one pod per node, ready", async () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '600'] }] },
        },
      },
    }
    assert.equal((await api('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, ds)).status, 201)
    await visit('#/workloads')
    await row('agent').getByRole('link', { name: 'agent', exact: true }).click()
    await page.getByRole('heading', { name: `DaemonSet ${ns}/agent` }).waitFor()
    const nodes = (await api('GET', '/api/v1/nodes')).body.items.length
    await page
      .locator('tr[data-name="Ready"] td.count', { hasText: `${nodes} of ${nodes}` })
      .waitFor({ timeout: 30_000 })
    await caption(`Pods of DaemonSet agent (${nodes})`).waitFor({ timeout: 15_000 })
    assert.equal(await page.locator('tr[data-name^="agent-"] td.node').count(), nodes)
  })

  it('ran without a Content-Security-Policy violation or a script error', () => {
    assert.deepEqual(problems, [])
  })
})
