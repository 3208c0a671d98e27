// The dashboard in a real browser: Debian's headless Chromium driven by playwright-core against the local server.
// Sign in with a token, watch a pod created by kubectl appear and turn Running without a reload, follow its logs,
// see it go when kubectl deletes it; every page is visited and a screenshot of each is saved under
// test-output/dashboard/ for people to look at. The static files carry a strict Content-Security-Policy and the page
// runs without a single CSP violation; a token that may see nothing is shown 403s, not empty tables.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, KUBEFLARE_URL, TEST_TOKENS, TOKEN, api, kubectl, uniqueNs } from './helpers.mjs'
import { openBrowser } from './dashboard-browser.mjs'

const kubectlLatest = KUBECTL_VERSIONS.at(-1)

let context
let page
let problems = []
let shot
let browser
const ns = uniqueNs('ui')

before(async () => {
  browser = await openBrowser(/status of 40[34]|ERR_NETWORK_CHANGED/)
  ;({ context, page, problems, shot } = browser)
  assert.equal((await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201)
})

after(async () => {
  await browser?.close()
  await api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})
})

const row = (name) => page.locator(`tr[data-name="${name}"]`)

async function signIn(token) {
  await page.goto(`${KUBEFLARE_URL}/ui/`)
  await page.getByLabel('Bearer token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

describe('dashboard', () => {
  it('serves the static files with a strict Content-Security-Policy and asks for a token', async () => {
    const res = await page.goto(`${KUBEFLARE_URL}/ui/`)
    assert.equal(res.status(), 200)
    const csp = res.headers()['content-security-policy']
    assert.match(csp, /default-src 'none'/)
    assert.match(csp, /script-src 'self'(;|$)/)
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/)
    assert.equal(res.headers()['x-content-type-options'], 'nosniff')
    // Keyboard first: the token field has the focus, the skip link is the first stop in the tab order.
    await page.getByLabel('Bearer token').waitFor()
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'token')
    // Nothing of the signed-in shell shows before signing in.
    assert.equal(await page.getByRole('navigation', { name: 'Sections' }).isVisible(), false)
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).isVisible(), false)
    assert.equal(
      await page.evaluate(() => document.querySelector('a[href], button, input')?.textContent),
      'Skip to content',
    )
    await shot('sign-in')
  })

  it('signs in, and a pod created with kubectl appears and turns Running without a reload', async () => {
    await signIn(TOKEN)
    await page.getByText(/^Signed in as /).waitFor()
    // The token is in this tab's sessionStorage, not in the URL or a cookie.
    assert.ok(!page.url().includes(TOKEN))
    assert.equal((await context.cookies()).length, 0)
    await page.getByLabel('Namespace').fill(ns)
    await page.getByLabel('Namespace').press('Enter')
    await page.getByLabel('Namespace').blur()
    await page.goto(`${KUBEFLARE_URL}/ui/#/pods`)
    await page.getByRole('heading', { name: 'Pods' }).waitFor()
    await page.getByText(`Pods in ${ns} (0)`).waitFor()
    const loaded = await page.evaluate(() => performance.getEntriesByType('navigation').length)
    await kubectl(kubectlLatest, [
      'run',
      'logger',
      '-n',
      ns,
      '--image=busybox:1.36',
      '--restart=Never',
      '--',
      'sh',
      '-c',
      'echo first line; sleep 4; echo second line; sleep 600',
    ])
    await row('logger').waitFor({ timeout: 15_000 })
    await row('logger').locator('td.phase', { hasText: 'Running' }).waitFor({ timeout: 15_000 })
    assert.match(await row('logger').locator('td.node').textContent(), /^node-\d+$/)
    assert.match(await row('logger').locator('td.ip').textContent(), /^10\.244\.\d+\.\d+$/)
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), loaded, 'no reload')
    await shot('pods')
  })

  it("shows the pod's detail and follows its logs", async () => {
    await row('logger').getByRole('link', { name: 'logger' }).click()
    await page.getByRole('heading', { name: `Pod ${ns}/logger` }).waitFor()
    await page.locator('#pod-status', { hasText: 'Running' }).waitFor()
    await page.getByRole('cell', { name: 'Ready', exact: true }).waitFor()
    await page.getByRole('cell', { name: 'Scheduled', exact: true }).first().waitFor({ timeout: 10_000 })
    assert.equal(await page.getByLabel('Follow').isChecked(), true)
    await page.getByRole('button', { name: 'Show logs' }).click()
    await page.locator('#log-output', { hasText: 'first line' }).waitFor({ timeout: 10_000 })
    // Written four seconds after the start: it arrives on the followed stream.
    await page.locator('#log-output', { hasText: 'second line' }).waitFor({ timeout: 15_000 })
    await shot('pod')
    await page.getByRole('button', { name: 'Stop' }).click()
  })

  it('shows namespaces, services with endpoints, nodes with capacity and their pods, workloads, events, custom resources', async () => {
    await page.goto(`${KUBEFLARE_URL}/ui/#/namespaces`)
    await row(ns).waitFor()
    await shot('namespaces')

    await kubectl(kubectlLatest, [
      'expose',
      'pod',
      'logger',
      '-n',
      ns,
      '--port=80',
      '--name=web',
      '--selector=run=logger',
    ])
    await page.goto(`${KUBEFLARE_URL}/ui/#/services`)
    await row('web')
      .locator('td', { hasText: /^10\.244\.\d+\.\d+:80$/ })
      .waitFor({ timeout: 15_000 })
    await shot('services')

    await page.goto(`${KUBEFLARE_URL}/ui/#/nodes`)
    await row('node-1').waitFor()
    assert.equal(await row('node-1').locator('td').nth(2).textContent(), '4')
    await shot('nodes')
    const pod = await api('GET', `/api/v1/namespaces/${ns}/pods/logger`)
    const node = pod.body.spec.nodeName
    await page.goto(`${KUBEFLARE_URL}/ui/#/nodes/${node}`)
    await row('logger').waitFor()
    await shot('node')

    await page.goto(`${KUBEFLARE_URL}/ui/#/workloads`)
    for (const kind of ['Deployments', 'ReplicaSets', 'Jobs', 'ReplicationControllers'])
      await page.getByText(`0 ${kind} in ${ns}`).waitFor()
    await shot('workloads')

    await page.goto(`${KUBEFLARE_URL}/ui/#/events`)
    await page.getByRole('cell', { name: 'Scheduled', exact: true }).first().waitFor({ timeout: 10_000 })
    await shot('events')

    if (await page.locator('#nav-custom').isVisible()) {
      await page.goto(`${KUBEFLARE_URL}/ui/#/custom`)
      await page.getByRole('heading', { name: 'Custom resources' }).waitFor()
      await shot('custom-resources')
    }
  })

  it('sees a pod deleted with kubectl go, and reads well on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${KUBEFLARE_URL}/ui/#/pods`)
    await row('logger').waitFor()
    await shot('pods-phone')
    await kubectl(kubectlLatest, ['delete', 'pod', 'logger', '-n', ns, '--wait=false'])
    await row('logger').waitFor({ state: 'detached', timeout: 20_000 })
    await page.getByText(`Pods in ${ns} (0)`).waitFor()
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('resumes a dropped watch from the last resourceVersion, and re-lists when that version is gone (410)', async () => {
    const urls = []
    const ghost = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ghost', namespace: ns, resourceVersion: '999999' },
    }
    await page.routeWebSocket(
      (url) => url.pathname === `/api/v1/namespaces/${ns}/pods` && url.searchParams.get('watch') === '1',
      (ws) => {
        urls.push(new URL(ws.url()))
        if (urls.length === 1) {
          // The first watch delivers an event and drops.
          ws.send(`${JSON.stringify({ type: 'ADDED', object: ghost })}\n`)
          setTimeout(() => ws.close(), 200)
        } else if (urls.length === 2) {
          // The server no longer has that version.
          ws.send(
            `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'too old resource version: 999999 (1000)', reason: 'Expired', code: 410 } })}\n`,
          )
          setTimeout(() => ws.close(), 200)
        } else ws.connectToServer()
      },
    )
    await page.goto(`${KUBEFLARE_URL}/ui/#/namespaces`)
    await page.goto(`${KUBEFLARE_URL}/ui/#/pods`)
    await row('ghost').waitFor()
    // The re-list drops what only the stale watch said; the watch after it is the real one again.
    await row('ghost').waitFor({ state: 'detached', timeout: 15_000 })
    assert.equal(urls[1].searchParams.get('resourceVersion'), '999999')
    await kubectl(kubectlLatest, [
      'run',
      'after-relist',
      '-n',
      ns,
      '--image=busybox:1.36',
      '--restart=Never',
      '--',
      'sleep',
      '600',
    ])
    await row('after-relist').waitFor({ timeout: 15_000 })
    assert.ok(urls.length >= 3)
    assert.notEqual(urls[2].searchParams.get('resourceVersion'), '999999')
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  })

  it('shows what an identity may not see as forbidden', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(TEST_TOKENS.bob)
    await page.getByText('Signed in as bob').waitFor()
    await page.goto(`${KUBEFLARE_URL}/ui/#/pods`)
    await page.getByRole('alert').filter({ hasText: 'Forbidden' }).waitFor()
    assert.match(await page.getByRole('alert').textContent(), /cannot list resource "pods"/)
    await shot('forbidden')
  })

  it('ran without a Content-Security-Policy violation or a script error', () => {
    assert.deepEqual(problems, [])
  })
})
