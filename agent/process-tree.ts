// The processes below a run's recorded process (its descendants, found through the host's /proc) and the SIGKILL of
// all of them: a container that joins a PID namespace it is not the init of (shareProcessNamespace, kubectl debug
// --target) has nothing that ends what left its process group (setsid, a daemon) when its init is killed, so a kill
// takes what is below the init first, while the init, their subreaper, still holds them (shim.py: container_init).
import { readdirSync, readFileSync } from 'node:fs'

/** The pids below `root` that have not ended (none where there is no /proc). */
function descendants(root: number): number[] {
  const below = new Map<number, number[]>()
  let names: string[] = []
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1')
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (state === 'Z') continue
      const kids = below.get(Number(ppid))
      if (kids) kids.push(Number(name))
      else below.set(Number(ppid), [Number(name)])
    } catch {
      // ended meanwhile
    }
  }
  const found: number[] = []
  const todo = [root]
  while (todo.length)
    for (const kid of below.get(todo.pop()!) ?? []) {
      found.push(kid)
      todo.push(kid)
    }
  return found
}

const pause = new Int32Array(new SharedArrayBuffer(4))

/**
 * SIGKILLs everything below `pid`, then `pid`'s process group (the run's init or command leads it). Rounds until none
 * is left (at most about 0.5 s): what a killed process started meanwhile is orphaned to the init, found next round.
 */
export function killTree(pid: number) {
  for (let round = 0; round < 100; round++) {
    const below = descendants(pid)
    if (below.length === 0) break
    for (const p of below)
      try {
        process.kill(p, 'SIGKILL')
      } catch {
        // ended meanwhile
      }
    Atomics.wait(pause, 0, 0, 5)
  }
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // the group is gone
  }
}
