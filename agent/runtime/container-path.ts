// Whether a command exists as a running container sees its files (through /proc/<pid>/root, which resolves in its
// mount namespace), looked up on the container's PATH: an exec entered through nsenter (a mount or network namespace)
// cannot be told apart from the command's own exit 127 once started, so the process runtime looks first and refuses
// a missing command with the CRI's `executable file not found in $PATH`, as kubectl exec reports it.
import { statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'

const isExecutableFile = (path: string) => {
  try {
    const s = statSync(path)
    return s.isFile() && (s.mode & 0o111) !== 0
  } catch {
    return false
  }
}

/** Throws kube's exec error when `command[0]` is not a program inside the container of `pid`. */
export function checkCommandIn(pid: number, command: string[], env: Record<string, string>, cwd: string) {
  const name = command[0]
  if (!name) return
  const root = `/proc/${pid}/root`
  const found = name.includes('/')
    ? isExecutableFile(join(root, isAbsolute(name) ? name : join(cwd, name)))
    : (env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
        .split(':')
        .some((dir) => dir !== '' && isExecutableFile(join(root, isAbsolute(dir) ? dir : join(cwd, dir), name)))
  if (!found) throw new Error(`exec: "${name}": executable file not found in $PATH`)
}
