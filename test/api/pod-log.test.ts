// GET pods/{name}/log and its options (container selection, tailLines, sinceSeconds, sinceTime, timestamps,
// limitBytes, previous, follow), and exec/attach/portforward/proxy, which virtual nodes refuse after validating the
// pod and container. Pods run on the real scheduler and simulated kubelet (delays 0): their log is what their
// program echoes, at the times its sleeps say.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BASE, makeNamespace, pod, req, sleep, waitFor, withToken } from '../helpers'

const V1 = ['', 'api', 'v1'].join('/')
type Obj = Record<string, any>

const podPath = (ns: string, name = '') => `${V1}/namespaces/${ns}/pods${name ? `/${name}` : ''}`
const logPath = (ns: string, name: string, query = '') => `${podPath(ns, name)}/log${query ? `?${query}` : ''}`
const getPod = async (ns: string, name: string) => (await req('GET', podPath(ns, name))).json as Obj
const phaseIs = (ns: string, name: string, phase: string, ms?: number) =>
  waitFor(
    `${ns}/${name} to be ${phase}`,
    async () => {
      const p = await getPod(ns, name)
      return p?.status?.phase === phase ? p : undefined
    },
    ms,
  )

/** A Never pod whose container(s) run the given sh scripts. */
function job(name: string, scripts: Record<string, string>, extra: Obj = {}, meta: Obj = {}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...meta },
    spec: {
      restartPolicy: 'Never',
      containers: Object.entries(scripts).map(([c, script]) => ({
        name: c,
        image: 'busybox:1.36',
        command: ['sh', '-c', script],
      })),
      ...extra,
    },
  }
}
async function create(ns: string, body: Obj) {
  const r = await req('POST', podPath(ns), body)
  expect(r.status, r.text).toBe(201)
}

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/

describe('pods/log: reading', () => {
  it('a single container is the default; the body is the program output as text/plain', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('one', { c: 'echo hello; echo "two words"; printf \'x\\ny\\n\'' }))
    await phaseIs(ns, 'one', 'Succeeded')
    const r = await req('GET', logPath(ns, 'one'))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(r.text).toBe('hello\ntwo words\nx\ny\n')
    // Naming the container gives the same.
    expect((await req('GET', logPath(ns, 'one', 'container=c'))).text).toBe('hello\ntwo words\nx\ny\n')
  })

  it('a program that is not simulated logs that its container started', async () => {
    const ns = await makeNamespace('log')
    await create(ns, pod('srv'))
    const p = await phaseIs(ns, 'srv', 'Running')
    const r = await req('GET', logPath(ns, 'srv'))
    expect(r.status).toBe(200)
    expect(r.text).toBe(`kubeflare: container c started from image nginx:1.25 on virtual node ${p.spec.nodeName}\n`)
  })

  it('several containers: no container → 400 naming them; container= picks one; an unknown one → 400', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('web', { a: 'echo from-a', b: 'echo from-b' }))
    await phaseIs(ns, 'web', 'Succeeded')
    const none = await req('GET', logPath(ns, 'web'))
    expect(none.status).toBe(400)
    expect(none.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: 'a container name must be specified for pod web, choose one of: [a b]',
    })
    expect((await req('GET', logPath(ns, 'web', 'container=a'))).text).toBe('from-a\n')
    expect((await req('GET', logPath(ns, 'web', 'container=b'))).text).toBe('from-b\n')
    const bad = await req('GET', logPath(ns, 'web', 'container=zzz'))
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ reason: 'BadRequest', message: 'container zzz is not valid for pod web' })
  })

  // kube (pkg/registry/core/pod/strategy.go validateContainer) lists every container the pod has, init containers
  // first (podutil.VisitContainers): "choose one of: [setup a b]". src/namespace/pod-logs.ts podLogRequest lists
  // the regular containers only.
  it('the "choose one of" list includes init containers, first (kube validateContainer)', async () => {
    const ns = await makeNamespace('log')
    await create(
      ns,
      job(
        'web',
        { a: 'echo a', b: 'echo b' },
        { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['true'] }] },
      ),
    )
    await phaseIs(ns, 'web', 'Succeeded')
    const none = await req('GET', logPath(ns, 'web'))
    expect(none.status).toBe(400)
    expect(none.json.message).toBe('a container name must be specified for pod web, choose one of: [setup a b]')
  })

  it("an init container's log is readable by name", async () => {
    const ns = await makeNamespace('log')
    await create(
      ns,
      job(
        'init',
        { main: 'echo main' },
        { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'echo preparing'] }] },
      ),
    )
    await phaseIs(ns, 'init', 'Succeeded')
    expect((await req('GET', logPath(ns, 'init', 'container=setup'))).text).toBe('preparing\n')
    expect((await req('GET', logPath(ns, 'init'))).text).toBe('main\n')
  })

  // kubectl reads kubectl.kubernetes.io/default-container itself and sends container=; the apiserver does not look at
  // the annotation (it answers 400 for a multi-container pod without container=). kubeflare also honours it on the
  // server: an extension, harmless for kubectl, asserted here as designed.
  it('the kubectl.kubernetes.io/default-container annotation picks the container when none is named', async () => {
    const ns = await makeNamespace('log')
    await create(
      ns,
      job(
        'annotated',
        { a: 'echo from-a', b: 'echo from-b' },
        {},
        { annotations: { 'kubectl.kubernetes.io/default-container': 'b' } },
      ),
    )
    await phaseIs(ns, 'annotated', 'Succeeded')
    expect((await req('GET', logPath(ns, 'annotated'))).text).toBe('from-b\n')
    expect((await req('GET', logPath(ns, 'annotated', 'container=a'))).text).toBe('from-a\n')
  })

  it('an annotation naming no container of the pod is ignored (400 as without it)', async () => {
    const ns = await makeNamespace('log')
    await create(
      ns,
      job(
        'stale',
        { a: 'echo a', b: 'echo b' },
        {},
        { annotations: { 'kubectl.kubernetes.io/default-container': 'gone' } },
      ),
    )
    await phaseIs(ns, 'stale', 'Succeeded')
    const r = await req('GET', logPath(ns, 'stale'))
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('a container name must be specified for pod stale, choose one of: [a b]')
  })

  it('404 for a missing pod', async () => {
    const ns = await makeNamespace('log')
    const r = await req('GET', logPath(ns, 'nope'))
    expect(r.status).toBe(404)
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      code: 404,
      message: 'pods "nope" not found',
      details: { name: 'nope', kind: 'pods' },
    })
    const f = await req('GET', logPath(ns, 'nope', 'follow=true'))
    expect(f.status).toBe(404)
    expect(f.json?.message).toBe('pods "nope" not found')
  })

  it('previous=true: 400, there is no previous container', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('prev', { c: 'echo x' }))
    await phaseIs(ns, 'prev', 'Succeeded')
    const r = await req('GET', logPath(ns, 'prev', 'previous=true'))
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({
      reason: 'BadRequest',
      message: 'previous terminated container "c" in pod "prev" not found',
    })
  })
})

describe('pods/log: options', () => {
  const FIVE = 'echo 1; echo 2; echo 3; echo 4; echo 5'

  it('tailLines: the last N lines; 0 → nothing; more than there are → all', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('tail', { c: FIVE }))
    await phaseIs(ns, 'tail', 'Succeeded')
    expect((await req('GET', logPath(ns, 'tail', 'tailLines=2'))).text).toBe('4\n5\n')
    expect((await req('GET', logPath(ns, 'tail', 'tailLines=1'))).text).toBe('5\n')
    expect((await req('GET', logPath(ns, 'tail', 'tailLines=0'))).text).toBe('')
    expect((await req('GET', logPath(ns, 'tail', 'tailLines=50'))).text).toBe('1\n2\n3\n4\n5\n')
  })

  it('limitBytes: the first N bytes (mid-line too)', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('limit', { c: 'echo one; echo two; echo three' }))
    await phaseIs(ns, 'limit', 'Succeeded')
    expect((await req('GET', logPath(ns, 'limit', 'limitBytes=5'))).text).toBe('one\nt')
    expect((await req('GET', logPath(ns, 'limit', 'limitBytes=8'))).text).toBe('one\ntwo\n')
    expect((await req('GET', logPath(ns, 'limit', 'limitBytes=1000'))).text).toBe('one\ntwo\nthree\n')
    // With tailLines: the tail first, then the byte limit.
    expect((await req('GET', logPath(ns, 'limit', 'tailLines=2&limitBytes=6'))).text).toBe('two\nth')
  })

  it('timestamps: every line prefixed with its RFC3339Nano time (9 fraction digits) and a space', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('ts', { c: 'echo first; echo second line' }))
    const started = await phaseIs(ns, 'ts', 'Succeeded')
    const r = await req('GET', logPath(ns, 'ts', 'timestamps=true'))
    const lines = r.text.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(2)
    const parsed = lines.map((l) => {
      const i = l.indexOf(' ')
      return { ts: l.slice(0, i), text: l.slice(i + 1) }
    })
    expect(parsed.map((p) => p.text)).toEqual(['first', 'second line'])
    for (const p of parsed) {
      expect(p.ts).toMatch(TS)
      expect(Math.abs(Date.parse(p.ts) - Date.parse(started.status.startTime))).toBeLessThan(3000)
    }
    // timestamps combine with tailLines.
    const tail = await req('GET', logPath(ns, 'ts', 'timestamps=true&tailLines=1'))
    expect(tail.text).toBe(`${lines[1]}\n`)
  })

  it('sinceTime and sinceSeconds: only lines written at or after that time', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('since', { c: 'echo early; sleep 3; echo late' }))
    await phaseIs(ns, 'since', 'Succeeded', 10_000)
    const stamped = (await req('GET', logPath(ns, 'since', 'timestamps=true'))).text.trim().split('\n')
    expect(stamped.map((l) => l.slice(l.indexOf(' ') + 1))).toEqual(['early', 'late'])
    const [earlyTs, lateTs] = stamped.map((l) => Date.parse(l.slice(0, l.indexOf(' '))))
    // The sleep separates the lines by at least 2 s (the start time has second precision).
    expect(lateTs! - earlyTs!).toBeGreaterThanOrEqual(1900)

    const secondOf = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
    expect((await req('GET', logPath(ns, 'since', `sinceTime=${encodeURIComponent(secondOf(lateTs!))}`))).text).toBe(
      'late\n',
    )
    expect((await req('GET', logPath(ns, 'since', `sinceTime=${encodeURIComponent(secondOf(earlyTs!))}`))).text).toBe(
      'early\nlate\n',
    )
    expect(
      (await req('GET', logPath(ns, 'since', `sinceTime=${encodeURIComponent(secondOf(lateTs! + 2000))}`))).text,
    ).toBe('')

    // sinceSeconds counts back from now: 1 h covers everything; a window that starts after `early` only has `late`.
    expect((await req('GET', logPath(ns, 'since', 'sinceSeconds=3600'))).text).toBe('early\nlate\n')
    const window = Math.ceil((Date.now() - earlyTs!) / 1000) - 1
    if (Date.now() - window * 1000 <= lateTs!) {
      expect((await req('GET', logPath(ns, 'since', `sinceSeconds=${window}`))).text).toBe('late\n')
    }
  })

  it('bad option values are refused as kube refuses them', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('opts', { c: 'echo x' }))
    await phaseIs(ns, 'opts', 'Succeeded')
    const tail = await req('GET', logPath(ns, 'opts', 'tailLines=-1'))
    expect(tail.status).toBe(422)
    expect(tail.json.reason).toBe('Invalid')
    expect(tail.json.message).toContain('tailLines: Invalid value: -1: must be greater than or equal to 0')
    const limit = await req('GET', logPath(ns, 'opts', 'limitBytes=0'))
    expect(limit.status).toBe(422)
    expect(limit.json.message).toContain('limitBytes: Invalid value: 0: must be greater than 0')
    const since = await req('GET', logPath(ns, 'opts', 'sinceSeconds=0'))
    expect(since.status).toBe(422)
    expect(since.json.message).toContain('sinceSeconds: Invalid value: 0: must be greater than 0')
    const both = await req(
      'GET',
      logPath(ns, 'opts', `sinceSeconds=5&sinceTime=${encodeURIComponent('2024-01-01T00:00:00Z')}`),
    )
    expect(both.status).toBe(422)
    expect(both.json.message).toContain('at most one of `sinceTime` or `sinceSeconds` may be specified')
    expect((await req('GET', logPath(ns, 'opts', 'tailLines=abc'))).status).toBe(400)
  })

  // kube's LogREST.Get (pkg/registry/core/pod/rest/log.go) answers errors.NewInvalid(api.Kind("PodLogOptions"), name,
  // errs) with the pod's name: `PodLogOptions "opts" is invalid: ...`. src/api/pod-subresources.ts logOptions passes ''
  // as the name (`PodLogOptions "" is invalid: ...`).
  it('an invalid option names the pod in the Invalid Status (PodLogOptions "<pod>" is invalid)', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('opts', { c: 'echo x' }))
    const tail = await req('GET', logPath(ns, 'opts', 'tailLines=-1'))
    expect(tail.json.message).toBe(
      'PodLogOptions "opts" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    )
    expect(tail.json.details?.name).toBe('opts')
  })
})

/** Reads a streamed response chunk by chunk, recording when each arrived. */
async function readTimed(
  res: Response,
  ms: number,
): Promise<{ chunks: { at: number; text: string }[]; ended: boolean }> {
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  const chunks: { at: number; text: string }[] = []
  const until = Date.now() + ms
  let ended = false
  for (;;) {
    const left = until - Date.now()
    if (left <= 0) break
    let timer: ReturnType<typeof setTimeout> | undefined
    const r = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
    ])
    if (timer !== undefined) clearTimeout(timer)
    if (r === 'timeout') break
    if (r.done) {
      ended = true
      break
    }
    chunks.push({ at: Date.now(), text: dec.decode(r.value, { stream: true }) })
  }
  if (!ended) await reader.cancel().catch(() => undefined)
  return { chunks, ended }
}

const follow = (ns: string, name: string, query = '') =>
  exports.default.fetch(
    new Request(BASE + logPath(ns, name, `follow=true${query ? `&${query}` : ''}`), { headers: withToken() }),
  )

describe('pods/log?follow=true', () => {
  it("streams lines as the program's sleeps pass", async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('tick', { c: 'echo one; sleep 1; echo two; sleep 1; echo three; sleep 1' }))
    await phaseIs(ns, 'tick', 'Running')
    const opened = Date.now()
    const res = await follow(ns, 'tick')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const { chunks } = await readTimed(res, 4500)
    const text = chunks.map((c) => c.text).join('')
    expect(text.startsWith('one\ntwo\nthree\n')).toBe(true)
    const at = (line: string) => chunks.find((c) => c.text.includes(`${line}\n`))!.at - opened
    // `one` is there at once; `two` within a second; `three` a second after `two`.
    expect(at('one')).toBeLessThan(500)
    expect(at('two')).toBeLessThan(1500)
    expect(at('three') - at('two')).toBeGreaterThan(700)
    expect(at('three') - at('two')).toBeLessThan(1500)
  })

  it('following a finished pod answers what it logged and ends', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('fin', { c: 'echo a; echo b' }))
    await phaseIs(ns, 'fin', 'Succeeded')
    const { chunks, ended } = await readTimed(await follow(ns, 'fin'), 3000)
    expect(chunks.map((c) => c.text).join('')).toBe('a\nb\n')
    expect(ended).toBe(true)
  })

  it('follow with tailLines and timestamps', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('ft', { c: 'echo 1; echo 2; echo 3' }))
    await phaseIs(ns, 'ft', 'Succeeded')
    const { chunks } = await readTimed(await follow(ns, 'ft', 'tailLines=1&timestamps=true'), 3000)
    const text = chunks.map((c) => c.text).join('')
    expect(text).toMatch(/^\S+ 3\n$/)
    expect(text.split(' ')[0]).toMatch(TS)
  })

  it('the stream ends when the pod is deleted', async () => {
    const ns = await makeNamespace('log')
    await create(ns, pod('forever'))
    await phaseIs(ns, 'forever', 'Running')
    const res = await follow(ns, 'forever')
    const reading = readTimed(res, 5000)
    await sleep(300)
    expect((await req('DELETE', podPath(ns, 'forever'), { gracePeriodSeconds: 0 })).status).toBe(200)
    const { chunks, ended } = await reading
    expect(chunks.map((c) => c.text).join('')).toMatch(/^kubeflare: container c started/)
    expect(ended).toBe(true)
  })

  // `kubectl logs -f` of a pod whose containers exit returns when they have exited (the kubelet closes the stream at
  // the container's end): the kubelet's status write of Succeeded/Failed ends the pod's followers (onPodGone).
  it('the stream ends when the pod completes', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('ends', { c: 'echo one; sleep 1; echo two' }))
    await phaseIs(ns, 'ends', 'Running')
    const res = await follow(ns, 'ends')
    const { chunks, ended } = await readTimed(res, 5000)
    expect(chunks.map((c) => c.text).join('')).toBe('one\ntwo\n')
    expect((await getPod(ns, 'ends')).status.phase).toBe('Succeeded')
    expect(ended).toBe(true)
  })

  // kubelet's follow reads one container's log file, which ends when that run exits; a restart is a new container.
  it('the stream of a container that exits ends with its run, though the kubelet starts it again', async () => {
    const ns = await makeNamespace('log')
    await create(ns, job('again', { c: 'echo a; sleep 1; exit 1' }, { restartPolicy: 'Always' }))
    await phaseIs(ns, 'again', 'Running')
    const { chunks, ended } = await readTimed(await follow(ns, 'again'), 5000)
    expect(chunks.map((c) => c.text).join('')).toBe('a\n')
    expect(ended).toBe(true)
    expect((await getPod(ns, 'again')).status.containerStatuses[0].restartCount).toBeGreaterThan(0)
    // Following it while it waits in CrashLoopBackOff answers the run that ended, and ends.
    await waitFor(
      'again to back off',
      async () => (await getPod(ns, 'again')).status.containerStatuses[0].state.waiting,
    )
    const waiting = await readTimed(await follow(ns, 'again'), 3000)
    expect(waiting.chunks.map((c) => c.text).join('')).toBe('a\n')
    expect(waiting.ended).toBe(true)
  })
})

describe('exec, attach, portforward, proxy on virtual nodes', () => {
  const why = (what: string, node: string, name: string) =>
    `pod ${name} runs on virtual node ${JSON.stringify(node)}, which the control plane simulates: it has no processes (a node agent serves ${what})`
  const refusal = (what: string, node: string, name: string) => `${what} is not available: ${why(what, node, name)}`
  const kubeletWords: Record<string, string> = {
    exec: 'error executing command in container',
    attach: 'error attaching to container',
    portforward: 'error forwarding port',
  }

  /** Opens a WebSocket stream offering `protocols`; answers the negotiated one and every message until close. */
  async function openStream(path: string, protocols: string) {
    const res = await exports.default.fetch(
      new Request(`${BASE}${path}`, {
        headers: withToken({ Upgrade: 'websocket', 'Sec-WebSocket-Protocol': protocols }),
      }),
    )
    expect(res.status).toBe(101)
    const ws = res.webSocket!
    const received: Promise<string | ArrayBuffer>[] = []
    const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)))
    // Binary frames arrive as Blobs under the current compatibility date.
    ws.addEventListener('message', (e) =>
      received.push(e.data instanceof Blob ? e.data.arrayBuffer() : Promise.resolve(e.data as string)),
    )
    ws.accept()
    const code = await closed
    return { protocol: res.headers.get('Sec-WebSocket-Protocol'), messages: await Promise.all(received), code }
  }

  it('a WebSocket client gets its upgrade, then the kubelet-style Status on the error channel', async () => {
    const ns = await makeNamespace('exec')
    await create(ns, pod('web'))
    const node = (await phaseIs(ns, 'web', 'Running')).spec.nodeName
    for (const what of ['exec', 'attach']) {
      // kubectl 1.30+ offers v5 first; client-node and the python client offer v4.
      for (const offered of ['v5.channel.k8s.io, v4.channel.k8s.io', 'v4.channel.k8s.io']) {
        const s = await openStream(`${podPath(ns, 'web')}/${what}?command=ls&stdout=true`, offered)
        expect(s.protocol).toBe(offered.split(',')[0])
        expect(s.messages).toHaveLength(1)
        const bytes = new Uint8Array(s.messages[0] as ArrayBuffer)
        expect(bytes[0]).toBe(3)
        const message = `${kubeletWords[what]}: ${why(what, node, 'web')}`
        expect(new TextDecoder().decode(bytes.subarray(1))).toBe(
          JSON.stringify({
            metadata: {},
            status: 'Failure',
            message: `Internal error occurred: ${message}`,
            reason: 'InternalError',
            details: { causes: [{ message }] },
            code: 500,
          }),
        )
        expect(s.code).toBe(1000)
      }
    }
    // Before v4 the error channel carries the bare message; base64 protocols send text.
    const old = await openStream(`${podPath(ns, 'web')}/exec?command=ls`, 'base64.channel.k8s.io')
    expect(old.protocol).toBe('base64.channel.k8s.io')
    const text = old.messages[0] as string
    expect(text[0]).toBe('3')
    expect(atob(text.slice(1))).toBe(`Internal error occurred: ${kubeletWords.exec}: ${why('exec', node, 'web')}`)
    const pf = await openStream(`${podPath(ns, 'web')}/portforward?ports=80`, 'portforward.k8s.io')
    expect(pf.protocol).toBe('portforward.k8s.io')
  })

  it('a running pod: 400 with the virtual-node message, for every verb and method', async () => {
    const ns = await makeNamespace('exec')
    await create(ns, pod('web'))
    const node = (await phaseIs(ns, 'web', 'Running')).spec.nodeName
    const calls: [string, string, string][] = [
      ['GET', 'exec?command=ls&stdout=true', 'exec'],
      ['POST', 'exec?command=sh&command=-c&command=date&stdin=true&stdout=true&tty=true', 'exec'],
      ['POST', 'exec?container=c&command=ls', 'exec'],
      ['GET', 'attach?stdout=true', 'attach'],
      ['POST', 'attach?container=c&stdin=true', 'attach'],
      ['GET', 'portforward?ports=80', 'portforward'],
      ['POST', 'portforward?ports=8080', 'portforward'],
      ['GET', 'proxy', 'proxy'],
      ['GET', 'proxy/healthz', 'proxy'],
      ['POST', 'proxy/api/items', 'proxy'],
      ['PUT', 'proxy/x', 'proxy'],
      ['DELETE', 'proxy/x/y', 'proxy'],
    ]
    for (const [method, sub, what] of calls) {
      const r = await req(method, `${podPath(ns, 'web')}/${sub}`)
      expect(r.status, `${method} ${sub}`).toBe(400)
      expect(r.json, `${method} ${sub}`).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'BadRequest',
        code: 400,
        message: refusal(what, node, 'web'),
      })
    }
  })

  it('the pod is validated first: 404 for a missing pod', async () => {
    const ns = await makeNamespace('exec')
    for (const sub of ['exec?command=ls', 'attach', 'portforward?ports=80', 'proxy/']) {
      const r = await req('GET', `${podPath(ns, 'nope')}/${sub}`)
      expect(r.status, sub).toBe(404)
      expect(r.json.message, sub).toBe('pods "nope" not found')
    }
  })

  it('then the container: 400 container X is not valid', async () => {
    const ns = await makeNamespace('exec')
    await create(ns, pod('web'))
    await phaseIs(ns, 'web', 'Running')
    for (const sub of ['exec?container=zzz&command=ls', 'attach?container=zzz']) {
      const r = await req('POST', `${podPath(ns, 'web')}/${sub}`)
      expect(r.status, sub).toBe(400)
      expect(r.json.message, sub).toBe('container zzz is not valid for pod web')
    }
  })

  it('an unscheduled pod has no host: 400 pod X does not have a host assigned', async () => {
    const ns = await makeNamespace('exec')
    await create(ns, pod('lost', {}, { nodeSelector: { 'kubeflare.test/none': 'x' } }))
    for (const sub of ['exec?command=ls', 'attach', 'portforward?ports=80']) {
      const r = await req('POST', `${podPath(ns, 'lost')}/${sub}`)
      expect(r.status, sub).toBe(400)
      expect(r.json.message, sub).toBe('pod lost does not have a host assigned')
    }
  })

  // kube's streamLocation (pkg/registry/core/pod/strategy.go, exec and attach) runs validateContainer: a pod with
  // several containers and no container= is 400 "a container name must be specified for pod m, choose one of: [a b]".
  // src/api/pod-subresources.ts streaming() only checks a container that is named, so the answer is the virtual-node
  // refusal instead.
  it('exec/attach on a multi-container pod without container=: 400 a container name must be specified', async () => {
    const ns = await makeNamespace('exec')
    await create(ns, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'm' },
      spec: {
        containers: [
          { name: 'a', image: 'nginx:1.25' },
          { name: 'b', image: 'nginx:1.25' },
        ],
      },
    })
    await phaseIs(ns, 'm', 'Running')
    for (const sub of ['exec?command=ls', 'attach']) {
      const r = await req('POST', `${podPath(ns, 'm')}/${sub}`)
      expect(r.status, sub).toBe(400)
      expect(r.json.message, sub).toBe('a container name must be specified for pod m, choose one of: [a b]')
    }
  })
})
