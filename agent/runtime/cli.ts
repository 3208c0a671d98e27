// A container CLI (docker or podman) as the container runtime drives it: one command at a time, its output
// collected; where it lives on PATH, and the version its engine answers (no answer: the engine is not usable).
import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** The engine's version template: docker's is the daemon's, a local podman's is its own. */
const VERSION_FORMAT: Record<string, string> = { docker: '{{.Server.Version}}', podman: '{{.Client.Version}}' }

export class Cli {
  /** docker or podman: the scheme of container IDs and of nodeInfo.containerRuntimeVersion. */
  readonly name: string
  /** The executable's path. */
  readonly path: string

  constructor(name: string, path: string) {
    this.name = name
    this.path = path
  }

  /** Runs `<cli> ...args`; a CLI that cannot be run answers code -1 with the reason as stderr. */
  run(args: string[], timeoutMs = 60_000): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(this.path, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && code === -1 ? err.message : '') })
      })
    })
  }

  /** The engine's version, or why it does not answer. */
  async version(): Promise<{ version: string } | { error: string }> {
    const r = await this.run(['version', '--format', VERSION_FORMAT[this.name] ?? '{{.Client.Version}}'], 15_000)
    const version = r.stdout.trim()
    if (r.code === 0 && version) return { version }
    return { error: (r.stderr.trim() || `exit code ${r.code}`).split('\n')[0]! }
  }
}

/** The first executable `name` on PATH. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return null
}

/** The last line a failed command wrote (the CLI's error), without docker's "Error response from daemon: " noise. */
export const cliError = (r: CliResult) =>
  (r.stderr.trim().split('\n').at(-1) ?? '').replace(/^(docker: |Error: )/, '') || `exit code ${r.code}`
