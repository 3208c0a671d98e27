#!/usr/bin/env node
// A stand-in `docker` CLI for the container runtime's tests: the subcommands the agent uses, a container run as a
// local process (its image's ENTRYPOINT/CMD from images.json, overridden as docker overrides them), state kept as JSON
// in $FAKE_DOCKER_DIR, every invocation's argv (and the values `-e NAME` took from the environment) appended to
// calls.jsonl so the tests can check exactly what the agent sent.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'

const dir = process.env.FAKE_DOCKER_DIR
const argv = process.argv.slice(2)
// docker's global --config <dir> (a pull with a pod's credentials), before the subcommand.
const configDir = argv[0] === '--config' ? argv[1] : null
const sub0 = configDir ? 2 : 0
const containers = join(dir, 'containers')
mkdirSync(containers, { recursive: true })
const json = (file, fallback) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fallback)
const images = () => json(join(dir, 'images.json'), {})
const load = (id) => {
  const c = json(join(containers, `${id}.json`), null)
  // The engine sees a container's end itself: one whose client is gone (and cannot record it) ended when its process did.
  if (c?.State.Running && !alive(c.ClientPid) && !alive(c.State.Pid)) {
    c.State = { ...c.State, Status: 'exited', Running: false, ExitCode: 137, FinishedAt: now() }
    save(c)
  }
  return c
}
const save = (c) => writeFileSync(join(containers, `${c.Id}.json`), JSON.stringify(c))
const all = () => readdirSync(containers).map((f) => load(f.replace(/\.json$/, '')))
const now = () => new Date().toISOString().replace(/Z$/, '123456Z')
const fail = (message, code = 1) => {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/** A signal to a container's process, which may have just ended. */
const signal = (pid, sig) => {
  try {
    process.kill(pid, sig)
  } catch {
    // gone meanwhile
  }
}
const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
/** Waits until the container's run has recorded its end. */
async function ended(id, ms = 30_000) {
  for (let t = 0; t < ms; t += 25) {
    const c = load(id)
    if (!c?.State.Running) return c
    await sleep(25)
  }
  return load(id)
}

const envOf = (list) => Object.fromEntries(list.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]))

/** docker run's flags, then the image and its arguments. */
function parseRun(args) {
  const o = { labels: {}, env: [], i: false, t: false }
  const valued = new Set([
    '--name',
    '--cidfile',
    '--pull',
    '--network',
    '--pid',
    '--label',
    '-e',
    '--env-file',
    '-w',
    '--memory',
    '--cpus',
    '--user',
    '--entrypoint',
    '--mount',
    '--group-add',
    '--cap-add',
    '--cap-drop',
    '--security-opt',
    '--sysctl',
  ])
  const flags = new Set(['-i', '-t', '--privileged', '--read-only'])
  let k = 0
  for (; k < args.length && args[k].startsWith('-'); k++) {
    const a = args[k]
    if (flags.has(a)) o[a.replace(/^-+/, '')] = true
    else if (valued.has(a)) {
      const v = args[++k]
      if (a === '--label') o.labels[v.slice(0, v.indexOf('='))] = v.slice(v.indexOf('=') + 1)
      else if (a === '-e') o.env.push(v.includes('=') ? v : `${v}=${process.env[v] ?? ''}`)
      // docker reads an env file itself: NAME=VALUE lines (a line break ends a value).
      else if (a === '--env-file') o.env.unshift(...readFileSync(v, 'utf8').split('\n').filter(Boolean))
      // Bind mounts are recorded, not made (a container here is a host process: it sees the host's files).
      else if (a === '--mount') (o.mounts ??= []).push(v)
      else o[a.replace(/^-+/, '')] = v
    } else fail(`unknown flag: ${a}`, 125)
  }
  return { o, image: args[k], args: args.slice(k + 1) }
}

async function run(args) {
  const { o, image, args: rest } = parseRun(args)
  const img = images()[image]
  if (!img) fail(`docker: Error response from daemon: No such image: ${image}.`, 125)
  if (existsSync(o.cidfile))
    fail(`docker: Container ID file found, make sure the other container isn't running or delete ${o.cidfile}.`, 125)
  const id = randomBytes(32).toString('hex')
  writeFileSync(o.cidfile, id)
  const zero = '0001-01-01T00:00:00Z'
  const c = {
    Id: id,
    Name: o.name,
    Labels: o.labels,
    Image: img.Id,
    Env: [...(img.Env ?? []), ...o.env],
    State: {
      Status: 'created',
      Running: false,
      OOMKilled: false,
      ExitCode: 0,
      Error: '',
      StartedAt: zero,
      FinishedAt: zero,
    },
  }
  save(c)
  // An engine slow to start what it created (FAKE_DOCKER_START_DELAY_MS): the container stays `created` meanwhile.
  const delay = Number(process.env.FAKE_DOCKER_START_DELAY_MS ?? 0)
  if (delay > 0) await new Promise((r) => setTimeout(r, delay))
  const command = [
    ...(o.entrypoint !== undefined ? [o.entrypoint] : (img.Entrypoint ?? [])),
    ...(rest.length || o.entrypoint !== undefined ? rest : (img.Cmd ?? [])),
  ]
  const root = join(dir, 'roots', id, o.w ?? img.WorkingDir ?? '/')
  mkdirSync(root, { recursive: true })
  c.Cwd = root
  // In a process group of its own, as an engine's container is: the client's end is not the container's.
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: envOf(c.Env),
    detached: true,
    stdio: [o.i ? 'inherit' : 'ignore', 'inherit', 'inherit'],
  })
  child.on('error', (e) => {
    c.State = {
      ...c.State,
      ExitCode: 127,
      Error: `failed to create task for container: exec: "${command[0]}": executable file not found in $PATH: unknown`,
    }
    save(c)
    fail(`docker: Error response from daemon: ${c.State.Error}. (${e.code})`, 127)
  })
  child.on('spawn', () => {
    c.ClientPid = process.pid
    c.State = { ...c.State, Status: 'running', Running: true, Pid: child.pid, StartedAt: now() }
    save(c)
  })
  child.on('exit', (code, signal) => {
    const exitCode = code ?? 128 + { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 }[signal]
    c.State = {
      ...c.State,
      Status: 'exited',
      Running: false,
      ExitCode: exitCode,
      FinishedAt: now(),
      OOMKilled: img.OomOnKill === true && exitCode === 137,
    }
    save(c)
    process.exit(exitCode)
  })
}

async function stop(args) {
  const grace = Number(args[args.indexOf('-t') + 1]) * 1000
  const id = args.at(-1)
  const c = load(id) ?? fail(`Error response from daemon: No such container: ${id}`)
  if (c.State.Running) {
    signal(c.State.Pid, 'SIGTERM')
    for (let t = 0; t < grace && alive(c.State.Pid); t += 25) await sleep(25)
    if (alive(c.State.Pid)) signal(c.State.Pid, 'SIGKILL')
    await ended(id)
  }
  console.log(id)
}

async function kill(id) {
  const c = load(id) ?? fail(`Error response from daemon: No such container: ${id}`)
  if (!c.State.Running) fail(`Error response from daemon: cannot kill container: ${id}: container ${id} is not running`)
  signal(c.State.Pid, 'SIGKILL')
  await ended(id)
  console.log(id)
}

function exec(args) {
  let k = 0
  const o = { i: false, t: false, env: [] }
  for (; args[k]?.startsWith('-'); k++)
    if (args[k] === '-e') o.env.push(args[++k])
    else o[args[k].slice(1)] = true
  const c = load(args[k])
  if (!c?.State.Running) fail(`Error response from daemon: container ${args[k]} is not running`)
  const command = args.slice(k + 1)
  // Run by the engine, in a group of its own: killing the client leaves it running, as a real exec does.
  const child = spawn(command[0], command.slice(1), {
    cwd: c.Cwd,
    env: envOf([...c.Env, ...o.env]),
    detached: true,
    stdio: [o.i ? 'inherit' : 'ignore', 'inherit', 'inherit'],
  })
  child.on('error', () =>
    fail(
      `OCI runtime exec failed: exec failed: unable to start container process: exec: "${command[0]}": executable file not found in $PATH: unknown`,
      126,
    ),
  )
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)))
}

function inspect(args) {
  const format = args[args.indexOf('--format') + 1]
  const ids = args.slice(args.indexOf('--format') + 2)
  let missing = false
  for (const id of ids) {
    const c = load(id)
    if (!c) {
      process.stderr.write(`Error: No such container: ${id}\n`)
      missing = true
    } else if (format === '{{json .State}}') console.log(JSON.stringify(c.State))
    else console.log(`${c.Id} ${c.State.Status} ${c.Labels['io.kubernetes.pod.uid'] ?? ''}`)
  }
  process.exit(missing ? 1 : 0)
}

/** The credential a client configuration holds for a registry host (docker's legacy key for Docker Hub). */
function credentialFor(file, host) {
  if (!file || !existsSync(file)) return null
  const auths = JSON.parse(readFileSync(file, 'utf8')).auths ?? {}
  const entry = auths[host === 'docker.io' ? 'https://index.docker.io/v1/' : host]
  return entry ? Buffer.from(entry.auth, 'base64').toString() : null
}

async function pull(ref, authFile) {
  const registry = json(join(dir, 'registry.json'), {})
  const img = registry[ref]
  await sleep(img?.PullMs ?? 0)
  if (!img) fail(`Error response from daemon: manifest for ${ref} not found: manifest unknown: manifest unknown`)
  // A private image: only the credential it names is let in (user:password for its registry host).
  if (img.Auth) {
    const host = ref.includes('/') && /[.:]/.test(ref.split('/')[0]) ? ref.split('/')[0] : 'docker.io'
    const given = credentialFor(authFile, host)
    if (given !== img.Auth)
      fail(
        given
          ? `Error response from daemon: Head "https://${host}/v2/${ref}": unauthorized: incorrect username or password (${given.split(':')[0]})`
          : `Error response from daemon: Head "https://${host}/v2/${ref}": no basic auth credentials`,
      )
  }
  writeFileSync(join(dir, 'images.json'), JSON.stringify({ ...images(), [ref]: img }))
  console.log(`docker.io/library/${ref}`)
}

async function main() {
  const call = { argv }
  // A client configuration handed to a pull: what it held, and its mode (0600 is expected).
  const authFile = configDir ? join(configDir, 'config.json') : argv[argv.indexOf('--authfile') + 1]
  if (argv.includes('pull') && authFile && existsSync(authFile)) {
    call.auth = JSON.parse(readFileSync(authFile, 'utf8'))
    call.authMode = (statSync(authFile).mode & 0o777).toString(8)
    if (configDir) call.configDirMode = (statSync(configDir).mode & 0o777).toString(8)
  }
  const e = argv[0] === 'run' ? parseRun(argv.slice(1)).o.env : []
  if (e.length) call.env = envOf(e)
  // What the CLI itself reads from its environment (where its engine is, where its configuration and storage are).
  if (argv[0] === 'run') call.own = { HOME: process.env.HOME ?? null, DOCKER_HOST: process.env.DOCKER_HOST ?? null }
  appendFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify(call)}\n`)
  const [sub, ...args] = argv.slice(sub0)
  switch (sub) {
    case 'version':
      return console.log('99.1.0-fake')
    case 'run':
      return run(args)
    case 'stop':
      return stop(args)
    case 'kill':
      return kill(args[0])
    case 'exec':
      return exec(args)
    case 'inspect':
      return inspect(args)
    case 'image': {
      const img = images()[args.at(-1)]
      if (!img) fail(`Error: No such image: ${args.at(-1)}`)
      return console.log(
        `${img.Id} ${img.Size} ${JSON.stringify(img.User ?? '')} ${JSON.stringify(img.RepoDigests ?? [])}`,
      )
    }
    case 'pull':
      return pull(args.at(-1), authFile)
    case 'rm':
      for (const id of args.filter((a) => a !== '-f')) {
        const c = load(id)
        if (c?.State.Running && args.includes('-f')) {
          signal(c.State.Pid, 'SIGKILL')
          // Its client, which records the end, may be gone: the process's end is enough.
          for (let t = 0; t < 30_000 && alive(c.State.Pid) && load(id)?.State.Running; t += 25) await sleep(25)
        }
        rmSync(join(containers, `${id}.json`), { force: true })
        console.log(id)
      }
      return
    case 'ps': {
      const [k, v] = args[args.indexOf('--filter') + 1].replace(/^label=/, '').split('=')
      for (const c of all()) if (c.Labels[k] === v) console.log(c.Id)
      return
    }
    case 'wait': {
      const c = await ended(args[0], 2 ** 31 - 1)
      return console.log(c.State.ExitCode)
    }
    default:
      fail(`docker: unknown command: ${sub}`, 1)
  }
}

await main()
