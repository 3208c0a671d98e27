// Files of a ConfigMap, Secret, downwardAPI or projected volume written as kubelet's AtomicWriter writes them
// (pkg/volume/util/atomic_writer.go): the payload goes into a fresh timestamped directory `..<time>.<random>`, the
// `..data` symlink is swapped to it in one rename, and each top-level name of the payload is a symlink `<name>` →
// `..data/<name>`; names a new payload drops lose their symlink, and the old directory goes. A reader therefore sees
// either the old files or the new ones, never a mix, and a bind mount of the volume directory sees every update.
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'

/** One file of a payload: its bytes and its mode (kube's FileProjection; uid/gid left to the runtime). */
export interface FileProjection {
  data: Buffer
  mode: number
}

export type Payload = Map<string, FileProjection>

const DATA_DIR = '..data'
const DATA_TMP = '..data_tmp'
const MAX_FILE_NAME = 255
const MAX_PATH = 4096

/** kube's validatePath: a payload path is relative, has no `..` element and does not start with `..`. */
export function validatePath(path: string): string | null {
  if (path === '') return 'invalid path: must not be empty'
  if (path.length > MAX_PATH) return `invalid path: must be less than or equal to ${MAX_PATH} characters`
  if (path.startsWith('/')) return 'invalid path: must be relative path'
  const items = path.split('/')
  for (const item of items) {
    if (item === '..') return "invalid path: must not contain '..'"
    if (item.length > MAX_FILE_NAME)
      return `invalid path: filenames must be less than or equal to ${MAX_FILE_NAME} characters`
  }
  if (items[0]!.startsWith('..')) return "invalid path: must not start with '..'"
  return null
}

/** The `..<UTC time>.<random>` name of a new data directory (Go's MkdirTemp pattern the kubelet uses). */
function timestampName(): string {
  const d = new Date()
  const p = (n: number) => String(n).padStart(2, '0')
  const time = `${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}`
  return `..${time}.${randomBytes(5).readUInt32BE(0)}`
}

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path)
  } catch {
    return null
  }
}

/** The payload paths a data directory holds (files only, relative). */
function filesIn(dir: string, prefix = ''): string[] {
  let names: string[] = []
  try {
    names = readdirSync(join(dir, prefix))
  } catch {
    return []
  }
  const out: string[] = []
  for (const name of names) {
    const rel = prefix ? `${prefix}/${name}` : name
    if (lstatSync(join(dir, rel)).isDirectory()) out.push(...filesIn(dir, rel))
    else out.push(rel)
  }
  return out
}

/** Whether the data directory holds exactly this payload, bytes and modes. */
function sameAs(dir: string, payload: Payload): boolean {
  const present = filesIn(dir)
  if (present.length !== payload.size) return false
  for (const path of present) {
    const want = payload.get(path)
    if (!want) return false
    try {
      if ((lstatSync(join(dir, path)).mode & 0o7777) !== want.mode) return false
      if (!readFileSync(join(dir, path)).equals(want.data)) return false
    } catch {
      return false
    }
  }
  return true
}

/**
 * Writes `payload` into `target` (which exists) as the AtomicWriter does; answers whether anything changed. Throws
 * on an invalid path (kube's wording) before touching anything.
 */
export function writePayload(target: string, payload: Payload): boolean {
  for (const path of payload.keys()) {
    const bad = validatePath(path)
    if (bad) throw new Error(bad)
  }
  const old = readlinkOrNull(join(target, DATA_DIR))
  const oldDir = old ? join(target, old) : null
  if (oldDir && sameAs(oldDir, payload)) return false
  const oldPaths = oldDir ? filesIn(oldDir) : []

  const tsName = timestampName()
  const tsDir = join(target, tsName)
  mkdirSync(tsDir)
  chmodSync(tsDir, 0o755)
  for (const [path, file] of payload) {
    const full = join(tsDir, path)
    const parent = full.slice(0, full.lastIndexOf('/'))
    mkdirSync(parent, { recursive: true, mode: 0o755 })
    writeFileSync(full, file.data)
    // writeFileSync's mode is masked by the umask; the file's mode must be the projection's exactly.
    chmodSync(full, file.mode)
  }
  // The swap: a new symlink renamed over ..data.
  rmSync(join(target, DATA_TMP), { force: true })
  symlinkSync(tsName, join(target, DATA_TMP))
  renameSync(join(target, DATA_TMP), join(target, DATA_DIR))

  // User-visible names: one symlink per top-level element of the payload.
  const top = (p: string) => p.split('/')[0]!
  const visible = new Set([...payload.keys()].map(top))
  for (const name of visible) {
    const link = join(target, name)
    if (readlinkOrNull(link) === null) {
      rmSync(link, { recursive: true, force: true })
      symlinkSync(join(DATA_DIR, name), link)
    }
  }
  for (const name of new Set(oldPaths.map(top))) if (!visible.has(name)) rmSync(join(target, name), { force: true })
  if (oldDir) rmSync(oldDir, { recursive: true, force: true })
  return true
}
