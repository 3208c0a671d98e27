// The node's own programs the process runtime runs around a container's command (the shim's python3, nsenter), found
// once on the agent's PATH. A command run for a container gets the container's environment, whose PATH the pod may
// set to anything (PATH=/app/bin): looked up there, they were not found, and an exec, a hook or a probe failed.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

const found = new Map<string, string>()

/** The absolute path of `name` on the agent's PATH (the bare name when it is not there: the spawn then says ENOENT). */
export function hostTool(name: string): string {
  const known = found.get(name)
  if (known) return known
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name)
    if (dir && existsSync(candidate)) {
      found.set(name, candidate)
      return candidate
    }
  }
  return name
}

let python: string | null = null

/**
 * The python3 interpreter itself: a python3 on the PATH may be a wrapper script (pyenv's shims run `env bash`), which
 * the container's environment would not run; the interpreter it leads to is asked once.
 */
export function hostPython(): string {
  if (python) return python
  const wrapper = hostTool('python3')
  const r = spawnSync(wrapper, ['-I', '-S', '-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  const real = r.status === 0 ? r.stdout.trim() : ''
  python = real && existsSync(real) ? real : wrapper
  return python
}
