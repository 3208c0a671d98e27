// The real browser the dashboard tests drive: Debian's headless Chromium through playwright-core, on a fresh profile,
// trusting the local server's own CA (kubectl and the API tests trust it through the kubeconfig), with the page's
// console errors and uncaught exceptions collected so a test can require none.
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { root } from './server-process.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Where the screenshots go, for people to look at. */
export const SHOTS = join(root, 'test-output', 'dashboard')
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Launches the browser. `expected` matches console errors that are not the page's fault: refusals the page shows are
 * logged by Chromium too, and a request Chromium cancelled because the machine's network interfaces changed (other
 * tests make bridges and veths) is asked again by the page.
 */
export async function openBrowser(expected) {
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM}: install Debian's chromium package (.ci/run does)`)
  mkdirSync(SHOTS, { recursive: true })
  const profile = mkdtempSync(join(tmpdir(), 'kubeflare-chromium-'))
  // A fresh profile every run (launchPersistentContext passes it as --user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 900 },
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const problems = []
  page.on('console', (m) => {
    if (m.type() === 'error' && !expected.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(String(e)))
  return {
    context,
    page,
    problems,
    shot: (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }),
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
