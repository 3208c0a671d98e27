// Container lifecycle handlers (postStart, preStop) as kubelet 1.33's handlerRunner runs them
// (pkg/kubelet/lifecycle/handlers.go): exec through the runtime's exec (as `kubectl exec` and exec probes run), httpGet
// from the agent to the pod's IP (any answer is a success; an HTTPS hook answered in plain HTTP is tried again over
// HTTP with a LifecycleHTTPFallback event), sleep (PodLifecycleSleepAction, on in 1.33), and anything else, tcpSocket
// included, refused as kubelet refuses it ("invalid handler"). A failure answers kubelet's message, which the pod
// worker puts in PostStartHookError's waiting message; the events carry no message, as kubelet's do not.
import { spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Obj } from './obj.ts'
import type { HostCommand } from './runtime/runtime.ts'

/** What a handler runs against: the pod and container, the pod's IP, how a command runs in the container. */
export interface HookTarget {
  pod: Obj
  container: Obj
  podIP: string
  exec(command: string[]): HostCommand
  /** An event about the pod itself (LifecycleHTTPFallback). */
  podEvent(type: 'Normal' | 'Warning', reason: string, message: string): void
  /** Ends the handler early (the pod is deleted while its postStart runs, or the stopped container's preStop). */
  signal: AbortSignal
}

/** Runs one handler; answers null when it succeeded, else kubelet's message for its failure. */
export async function runHook(handler: Obj, target: HookTarget): Promise<string | null> {
  const name = goQuote(String(target.container.name))
  const pod = goQuote(podRef(target.pod))
  if (handler.exec) {
    const command = (handler.exec.command ?? []) as string[]
    const { error, output } = await execHook(command, target)
    if (error === null) return null
    return `Exec lifecycle hook ([${command.join(' ')}]) for Container ${name} in Pod ${pod} failed - error: ${error}, message: ${goQuote(output)}`
  }
  if (handler.httpGet) {
    const error = await httpHook(handler.httpGet, target)
    if (error === null) return null
    return `HTTP lifecycle hook (${handler.httpGet.path ?? ''}) for Container ${name} in Pod ${pod} failed - error: ${error}`
  }
  if (handler.sleep) {
    const seconds = Number(handler.sleep.seconds ?? 0)
    if (await sleep(seconds * 1000, target.signal)) return null
    return `Sleep lifecycle hook (${seconds}) for Container ${name} in Pod ${pod} failed - error: container terminated before sleep hook finished`
  }
  return `Cannot run handler: invalid handler: ${handlerString(handler)}`
}

/** format.Pod: name_namespace(uid). */
export const podRef = (pod: Obj) => `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`

/** Sleeps `ms`; answers false when aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted)
      resolve(true)
    }, ms)
    const aborted = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener('abort', aborted, { once: true })
  })
}

/**
 * The command in the container, with no time limit (kubelet passes 0); the error as the CRI client's ExecSync words a
 * non-zero exit, the output stdout then stderr (RunInContainer).
 */
function execHook(command: string[], target: HookTarget): Promise<{ error: string | null; output: string }> {
  return new Promise((resolve) => {
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let run: HostCommand
    try {
      run = target.exec(command)
    } catch (e) {
      resolve({ error: (e as Error).message, output: '' })
      return
    }
    const child = spawn(run.argv[0]!, run.argv.slice(1), {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // gone
      }
      // The command itself, in the container (a container runtime's exec client was all the kill above reached).
      run.end?.()
    }
    target.signal.addEventListener('abort', kill, { once: true })
    // Kept to a bound: the message lands in the pod's status (a chatty hook must not grow it, or the agent, for good).
    const keep = (into: Buffer[]) => (d: Buffer) => {
      const room = MAX_OUTPUT - into.reduce((n, b) => n + b.length, 0)
      if (room > 0) into.push(d.subarray(0, room))
    }
    child.stdout.on('data', keep(stdout))
    child.stderr.on('data', keep(stderr))
    const output = () => Buffer.concat([...stdout, ...stderr]).toString('utf8')
    child.on('error', (e) => {
      target.signal.removeEventListener('abort', kill)
      resolve({ error: e.message, output: output() })
    })
    child.on('close', (code, signal) => {
      target.signal.removeEventListener('abort', kill)
      const exit = code ?? 128 + signalNumber(signal)
      if (exit === 0) resolve({ error: null, output: output() })
      else
        resolve({
          error: `command '${command.join(' ')}' exited with ${exit}: ${Buffer.concat(stderr).toString('utf8')}`,
          output: output(),
        })
    })
  })
}

/** How much of each output stream of an exec hook is kept. */
const MAX_OUTPUT = 16 * 1024

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 }
const signalNumber = (signal: NodeJS.Signals | null) => (signal ? (SIGNALS[signal] ?? 9) : 0)

/** probe.ResolveContainerPort: a number, or a port name of the container, or a name that parses as a number. */
export function resolveHookPort(port: unknown, container: Obj): number {
  let n: number
  if (typeof port === 'number') n = port
  else {
    const named = ((container.ports ?? []) as Obj[]).find((p) => p.name === port)
    if (named) n = Number(named.containerPort)
    else if (/^[+-]?\d+$/.test(String(port))) n = Number(port)
    else throw new Error(`strconv.Atoi: parsing ${goQuote(String(port))}: invalid syntax`)
  }
  if (n > 0 && n < 65536) return n
  throw new Error(`invalid port number: ${n}`)
}

/**
 * httpprobe.NewRequestForHTTPGetAction with the "lifecycle" user agent, sent by a client with no timeout that skips
 * TLS verification; any answer is a success (kubelet reads no status code of a hook's answer).
 */
async function httpHook(get: Obj, target: HookTarget): Promise<string | null> {
  let port: number
  try {
    port = resolveHookPort(get.port, target.container)
  } catch (e) {
    return (e as Error).message
  }
  const scheme = String(get.scheme || 'HTTP').toLowerCase()
  const host = String(get.host || target.podIP)
  const raw = String(get.path ?? '')
  const path = raw.startsWith('/') ? raw : `/${raw}`
  const headers: Record<string, string[]> = {}
  for (const h of (get.httpHeaders ?? []) as Obj[]) (headers[String(h.name)] ??= []).push(String(h.value))
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name)
  if (!has('user-agent')) headers['User-Agent'] = ['kube-lifecycle/1.33']
  if (!has('accept')) headers.Accept = ['*/*']
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const first = await get1(scheme, hostPort, path, headers, target.signal)
  if (first === null || scheme !== 'https' || !first.plainHttp) return first?.error ?? null
  // isHTTPResponseError: an HTTPS hook answered in plain HTTP is sent again over HTTP, without Authorization.
  const plain = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'))
  const again = await get1('http', hostPort, path, plain, target.signal)
  if (again !== null) return first.error
  target.podEvent(
    'Warning',
    'LifecycleHTTPFallback',
    `request to HTTPS lifecycle hook ${hostPort} got HTTP response, retry with HTTP succeeded`,
  )
  return null
}

/** One GET; null once it was answered, else Go's url.Error wording (and whether the server spoke plain HTTP). */
function get1(
  scheme: string,
  hostPort: string,
  path: string,
  headers: Record<string, string[]>,
  signal: AbortSignal,
): Promise<{ error: string; plainHttp: boolean } | null> {
  const url = `${scheme}://${hostPort}${path}`
  return new Promise((resolve) => {
    const req = (scheme === 'https' ? httpsRequest : httpRequest)(
      url,
      { headers, rejectUnauthorized: false, signal },
      (res) => {
        res.resume()
        resolve(null)
      },
    )
    req.on('error', (e: NodeJS.ErrnoException) => {
      const plainHttp = /wrong version number|packet length too long|http request/i.test(e.message)
      const cause =
        e.code === 'ECONNREFUSED'
          ? `dial tcp ${hostPort}: connect: connection refused`
          : plainHttp
            ? 'http: server gave HTTP response to HTTPS client'
            : e.name === 'AbortError'
              ? 'context canceled'
              : e.message
      resolve({ error: `Get ${goQuote(url)}: ${cause}`, plainHttp })
    })
    req.end()
  })
}

/** The generated String() of a LifecycleHandler (gogo-protobuf), which kubelet's "invalid handler" error prints. */
export function handlerString(h: Obj): string {
  // An IntOrString printed with %v as a value: {Type IntVal StrVal}.
  const intOrString = (v: unknown) => (typeof v === 'number' ? `{0 ${v} }` : `{1 0 ${v ?? ''}}`)
  const exec = h.exec ? `&ExecAction{Command:[${((h.exec.command ?? []) as string[]).join(' ')}],}` : 'nil'
  const headers = ((h.httpGet?.httpHeaders ?? []) as Obj[]).map((x) => `HTTPHeader{Name:${x.name},Value:${x.value},},`)
  const httpGet = h.httpGet
    ? `&HTTPGetAction{Path:${h.httpGet.path ?? ''},Port:${intOrString(h.httpGet.port)},Host:${h.httpGet.host ?? ''},Scheme:${h.httpGet.scheme ?? ''},HTTPHeaders:[]HTTPHeader{${headers.join('')}},}`
    : 'nil'
  const tcp = h.tcpSocket
    ? `&TCPSocketAction{Port:${intOrString(h.tcpSocket.port)},Host:${h.tcpSocket.host ?? ''},}`
    : 'nil'
  const sleepAction = h.sleep ? `&SleepAction{Seconds:${h.sleep.seconds ?? 0},}` : 'nil'
  return `&LifecycleHandler{Exec:${exec},HTTPGet:${httpGet},TCPSocket:${tcp},Sleep:${sleepAction},}`
}

/** Go's strconv.Quote (%q) for valid UTF-8 text. */
export function goQuote(s: string): string {
  const named: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '"': '\\"',
    '\\': '\\\\',
  }
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (named[ch]) out += named[ch]
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
    else if (c >= 0x80 && c <= 0x9f) out += `\\u${c.toString(16).padStart(4, '0')}`
    else out += ch
  }
  return `${out}"`
}
