// Container probes against the real process, as the kubelet's prober runs them: exec (exit 0), httpGet (2xx/3xx),
// tcpSocket (connects); every periodSeconds after initialDelaySeconds, each within timeoutSeconds, the result flipping
// after successThreshold successes or failureThreshold failures in a row.
import { spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import type { Obj } from './obj.ts'
import type { HostCommand } from './runtime/runtime.ts'

export type ProbeKind = 'liveness' | 'readiness' | 'startup'

/** Where a probe runs: the container's environment and directory, its ports, the address its processes listen on. */
export interface ProbeTarget {
  env: Record<string, string>
  cwd: string
  ports: Obj[]
  host: string
  /** How a command runs inside the container (a container runtime's exec); without it, as a process beside it. */
  exec?: (command: string[]) => HostCommand
}

export interface ProbeOutcome {
  ok: boolean
  output: string
}

function resolvePort(port: unknown, ports: Obj[]): number {
  if (typeof port === 'number') return port
  if (/^\d+$/.test(String(port))) return Number(port)
  const named = ports.find((p) => p.name === port)
  if (!named) throw new Error(`couldn't find port ${String(port)} in container`)
  return named.containerPort
}

function execProbe(command: string[], target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    let output = ''
    const run = target.exec?.(command) ?? { argv: command, env: target.env, cwd: target.cwd }
    const child = spawn(run.argv[0]!, run.argv.slice(1), { cwd: run.cwd, env: run.env, detached: true })
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // gone
      }
      // The command itself, in the container (a container runtime's exec client was all the kill above reached).
      run.end?.()
      resolve({ ok: false, output: `command timed out after ${timeoutMs / 1000}s` })
    }, timeoutMs)
    const take = (d: Buffer) => {
      if (output.length < 10_240) output += d.toString()
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('error', (e) => {
      clearTimeout(timer)
      resolve({ ok: false, output: e.message })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ ok: code === 0, output })
    })
  })
}

function httpProbe(get: Obj, target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  const scheme = String(get.scheme ?? 'HTTP').toLowerCase()
  const host = get.host || target.host
  const port = resolvePort(get.port, target.ports)
  const path = get.path ? (String(get.path).startsWith('/') ? get.path : `/${get.path}`) : '/'
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path}`
  const headers: Record<string, string> = { 'User-Agent': 'kube-probe/1.33', Accept: '*/*' }
  for (const h of (get.httpHeaders ?? []) as Obj[]) headers[h.name] = h.value
  return new Promise((resolve) => {
    const req = (scheme === 'https' ? httpsRequest : httpRequest)(
      url,
      { headers, timeout: timeoutMs, rejectUnauthorized: false },
      (res) => {
        res.resume()
        const code = res.statusCode ?? 0
        resolve(
          code >= 200 && code < 400
            ? { ok: true, output: '' }
            : { ok: false, output: `HTTP probe failed with statuscode: ${code}` },
        )
      },
    )
    req.on('timeout', () => {
      req.destroy()
      resolve({
        ok: false,
        output: `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      })
    })
    req.on('error', (e) => resolve({ ok: false, output: `Get "${url}": ${dialError(e, host, port)}` }))
    req.end()
  })
}

const dialError = (e: Error, host: string, port: number) =>
  (e as NodeJS.ErrnoException).code === 'ECONNREFUSED'
    ? `dial tcp ${host}:${port}: connect: connection refused`
    : e.message

function tcpProbe(tcp: Obj, target: ProbeTarget, timeoutMs: number): Promise<ProbeOutcome> {
  const host = tcp.host || target.host
  const port = resolvePort(tcp.port, target.ports)
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs })
    socket.on('connect', () => {
      socket.destroy()
      resolve({ ok: true, output: '' })
    })
    socket.on('timeout', () => {
      socket.destroy()
      resolve({ ok: false, output: `dial tcp ${host}:${port}: i/o timeout` })
    })
    socket.on('error', (e) => resolve({ ok: false, output: dialError(e, host, port) }))
  })
}

/** One run of a probe. */
export async function runProbe(probe: Obj, target: ProbeTarget): Promise<ProbeOutcome> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000
  try {
    if (probe.exec) return await execProbe(probe.exec.command ?? [], target, timeoutMs)
    if (probe.httpGet) return await httpProbe(probe.httpGet, target, timeoutMs)
    if (probe.tcpSocket) return await tcpProbe(probe.tcpSocket, target, timeoutMs)
    return { ok: false, output: 'the process runtime runs exec, httpGet and tcpSocket probes only' }
  } catch (e) {
    return { ok: false, output: (e as Error).message }
  }
}

/** A probe running periodically for one run of a container; `result` is what it decided so far. */
export class ProbeWorker {
  result: boolean
  /** A readiness or startup probe starts Unknown (kubelet's results): its first verdict counts even when false. */
  private decided: boolean
  private timer: NodeJS.Timeout | null = null
  private streak = 0
  private stopped = false

  readonly kind: ProbeKind
  private readonly probe: Obj
  private readonly target: ProbeTarget
  private readonly onChange: (ok: boolean, output: string) => void
  private readonly onFailure: (output: string) => void

  constructor(
    kind: ProbeKind,
    probe: Obj,
    target: ProbeTarget,
    onChange: (ok: boolean, output: string) => void,
    onFailure: (output: string) => void,
  ) {
    this.kind = kind
    this.probe = probe
    this.target = target
    this.onChange = onChange
    this.onFailure = onFailure
    // A readiness or startup probe has not succeeded yet; a liveness probe has not failed yet.
    this.result = kind === 'liveness'
    this.decided = kind === 'liveness'
  }

  start() {
    this.schedule((this.probe.initialDelaySeconds ?? 0) * 1000)
  }

  stop() {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  private schedule(ms: number) {
    if (this.stopped) return
    this.timer = setTimeout(() => void this.tick(), ms)
  }

  private async tick() {
    const outcome = await runProbe(this.probe, this.target)
    if (this.stopped) return
    if (!outcome.ok) this.onFailure(outcome.output)
    // A streak counts results equal to each other: positive for successes, negative for failures.
    this.streak = outcome.ok ? Math.max(this.streak, 0) + 1 : Math.min(this.streak, 0) - 1
    const threshold = outcome.ok ? (this.probe.successThreshold ?? 1) : (this.probe.failureThreshold ?? 3)
    if (Math.abs(this.streak) >= threshold && (this.result !== outcome.ok || !this.decided)) {
      this.result = outcome.ok
      this.decided = true
      this.onChange(outcome.ok, outcome.output)
    }
    this.schedule((this.probe.periodSeconds ?? 10) * 1000)
  }
}
