// What the e2e runner and the durability test both need to start and stop a local server in its own process group.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

// wrangler needs Node >= 22: the node running this file if it is one, else the one npm installed.
const localNode = join(root, 'node_modules', '.bin', 'node')
export const nodeBin =
  Number(process.versions.node.split('.')[0]) >= 22 || !existsSync(localNode) ? process.execPath : localNode

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A TCP port nothing listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

/** Whether a process group has live (non-zombie) members; falls back to kill(-pgid, 0) where /proc is missing. */
export function groupAlive(pgid) {
  if (existsSync('/proc/self/stat')) {
    for (const ent of readdirSync('/proc')) {
      if (!/^\d+$/.test(ent)) continue
      let stat
      try {
        stat = readFileSync(`/proc/${ent}/stat`, 'utf8')
      } catch {
        continue
      }
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // state ppid pgrp …
      if (Number(f[2]) === pgid && f[0] !== 'Z' && f[0] !== 'X') return true
    }
    return false
  }
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}
