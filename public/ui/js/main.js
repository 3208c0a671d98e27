// The dashboard's shell: sign-in (a bearer token kept in sessionStorage), the namespace choice, and hash routes to
// the pages. Each page renders into <main> and returns a function that stops its live updates when it is left.
import { api, served, session } from './api.js'
import { alert, h, replace } from './dom.js'
import { customPage } from './pages/custom.js'
import { eventsPage } from './pages/events.js'
import { namespacesPage } from './pages/namespaces.js'
import { nodePage, nodesPage } from './pages/nodes.js'
import { podPage } from './pages/pod.js'
import { podsPage } from './pages/pods.js'
import { servicesPage } from './pages/services.js'
import { workloadPage } from './pages/workload.js'
import { workloadsPage } from './pages/workloads.js'

const NS_KEY = 'kubeflare.namespace'
const main = document.getElementById('main')
const statusLine = document.getElementById('status')
const nsInput = document.getElementById('ns-input')

/** What pages share: the chosen namespace ('' = all), a status line, and where to render. */
const ctx = {
  main,
  get namespace() {
    return sessionStorage.getItem(NS_KEY) ?? 'default'
  },
  set namespace(v) {
    sessionStorage.setItem(NS_KEY, v)
    nsInput.value = v
  },
  say(text) {
    statusLine.textContent = text
  },
}

/** Each route's page gets the match and a context whose `main` is that visit's own element. */
const routes = [
  [/^\/namespaces$/, (_, c) => namespacesPage(c)],
  [/^\/pods$/, (_, c) => podsPage(c)],
  [/^\/pods\/([^/]+)\/([^/]+)$/, (m, c) => podPage(c, decodeURIComponent(m[1]), decodeURIComponent(m[2]))],
  [/^\/services$/, (_, c) => servicesPage(c)],
  [/^\/nodes$/, (_, c) => nodesPage(c)],
  [/^\/nodes\/([^/]+)$/, (m, c) => nodePage(c, decodeURIComponent(m[1]))],
  [/^\/workloads$/, (_, c) => workloadsPage(c)],
  [
    /^\/workloads\/([^/]+)\/([^/]+)\/([^/]+)$/,
    (m, c) => workloadPage(c, m[1], decodeURIComponent(m[2]), decodeURIComponent(m[3])),
  ],
  [/^\/events$/, (_, c) => eventsPage(c)],
  [/^\/custom$/, (_, c) => customPage(c)],
  [/^\/custom\/([^/]+)$/, (m, c) => customPage(c, decodeURIComponent(m[1]))],
]

let leave = null
let routed = 0

async function route() {
  leave?.()
  leave = null
  const mine = ++routed
  ctx.say('')
  if (!session.token) return signIn()
  const path = location.hash.replace(/^#/, '') || '/pods'
  for (const a of document.querySelectorAll('#nav a')) {
    if (path.startsWith(a.getAttribute('href').slice(1))) a.setAttribute('aria-current', 'page')
    else a.removeAttribute('aria-current')
  }
  const found = routes.find(([re]) => re.test(path))
  // Each visit renders into its own element: a page still loading when the next visit starts writes into one that
  // is no longer shown, and is stopped as soon as it is done.
  const view = h('div')
  replace(main, view)
  const pageCtx = Object.create(ctx, { main: { value: view } })
  let stop = null
  try {
    stop = found ? ((await found[1](path.match(found[0]), pageCtx)) ?? null) : (replace(view, h('h1', {}, 'Not found')), null)
  } catch (e) {
    if (mine === routed) replace(view, alert(e))
  }
  if (mine !== routed) return stop?.()
  leave = stop
  main.focus()
}

function signIn(message) {
  document.getElementById('nav').hidden = true
  document.getElementById('session').hidden = true
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' })
  const form = h(
    'form',
    { className: 'signin', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in'),
    h('p', { className: 'note' }, 'Paste a bearer token (the one in your kubeconfig, or a ServiceAccount token). It is kept in this tab only.'),
    h('label', { for: 'token' }, 'Bearer token'),
    input,
    h('button', { type: 'submit' }, 'Sign in'),
    message ? alert(message) : null,
  )
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    session.token = input.value.trim()
    try {
      await start()
    } catch (err) {
      session.token = ''
      signIn(err)
    }
  })
  replace(main, form)
  input.focus()
}

/** Who the token is (SelfSubjectReview), then the shell and the current page. */
async function start() {
  const review = await api('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    retry: true, // it changes nothing
  })
  document.getElementById('whoami').textContent = `Signed in as ${review.status?.userInfo?.username ?? 'unknown'}`
  document.getElementById('nav').hidden = false
  document.getElementById('session').hidden = false
  nsInput.value = ctx.namespace
  // Namespaces to pick from, when this identity may list them; custom resources when CRDs are served.
  api('/api/v1/namespaces')
    .then((list) => replace(document.getElementById('ns-list'), list.items.map((n) => h('option', { value: n.metadata.name }))))
    .catch(() => undefined)
  served('apiextensions.k8s.io/v1').then((r) => {
    document.getElementById('nav-custom').hidden = !r?.has('customresourcedefinitions')
  })
  if (!location.hash) location.hash = '#/pods'
  await route()
}

nsInput.addEventListener('change', () => {
  ctx.namespace = nsInput.value.trim()
  route()
})
document.getElementById('sign-out').addEventListener('click', () => {
  session.token = ''
  leave?.()
  leave = null
  signIn()
})
window.addEventListener('hashchange', () => {
  if (session.token) route()
})

if (session.token) start().catch((e) => signIn(e))
else signIn()
