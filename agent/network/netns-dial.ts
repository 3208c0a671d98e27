// A connection to 127.0.0.1:<port> inside a pod's network namespace (kubelet's port-forward dials localhost in the
// pod's netns): Node cannot enter a namespace itself, so netns-dial.py does and relays the connection over its pipes;
// this side is a Duplex with a socket's events (`connect`, an `error` with the dial's errno as `code`, `close`).
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { Duplex } from 'node:stream'
import { hostPython } from '../host-tools.ts'

const HELPER = join(import.meta.dirname, 'netns-dial.py')

export function dialInNetns(nsPath: string, port: number): Duplex {
  const child = spawn(hostPython(), ['-I', '-S', HELPER, nsPath, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  let connected = false
  const conn = new Duplex({
    read() {
      child.stdout.resume()
    },
    write(chunk, _enc, done) {
      if (!child.stdin.writable) return done()
      child.stdin.write(chunk, () => done())
    },
    final(done) {
      child.stdin.end()
      done()
    },
    destroy(err, done) {
      if (child.exitCode === null) child.kill('SIGKILL')
      done(err)
    },
  })
  child.stdin.on('error', () => undefined)
  child.stdout.on('data', (chunk: Buffer) => {
    if (!conn.push(chunk)) child.stdout.pause()
  })
  child.stdout.on('end', () => conn.push(null))
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d
    if (!connected && stderr.includes('CONNECTED\n')) {
      connected = true
      conn.emit('connect')
    }
  })
  child.on('error', (e) => conn.destroy(e))
  child.on('exit', (code) => {
    if (connected || code === 0) return
    const why = stderr.trim() || `exit ${code}`
    const e = Object.assign(new Error(why === 'ECONNREFUSED' ? 'connect ECONNREFUSED' : why), { code: why })
    conn.destroy(e)
  })
  return conn
}
