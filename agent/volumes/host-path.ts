// A hostPath volume's `type` check as kube's hostpath plugin makes it (pkg/volume/hostpath checkTypeInternal): the
// *OrCreate types create what is missing (a directory 0755, an empty file 0644), the others must find the path as
// that kind of file, else `hostPath type check failed: <path> is not a directory` (and so on).
import { closeSync, mkdirSync, openSync, statSync, type Stats } from 'node:fs'

function stat(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

/** Checks (and for the *OrCreate types makes) `path`; throws kube's error. */
export function checkHostPath(path: string, type: string | undefined) {
  const fail = (what: string) => new Error(`hostPath type check failed: ${path} is not a ${what}`)
  switch (type ?? '') {
    // "": no check (kube's default).
    case '':
      return
    case 'DirectoryOrCreate':
      if (!stat(path)) {
        mkdirSync(path, { recursive: true, mode: 0o755 })
        return
      }
      if (!stat(path)!.isDirectory()) throw fail('directory')
      return
    case 'Directory':
      if (!stat(path)?.isDirectory()) throw fail('directory')
      return
    case 'FileOrCreate':
      if (!stat(path)) {
        closeSync(openSync(path, 'a', 0o644))
        return
      }
      if (!stat(path)!.isFile()) throw fail('file')
      return
    case 'File':
      if (!stat(path)?.isFile()) throw fail('file')
      return
    case 'Socket':
      if (!stat(path)?.isSocket()) throw fail('socket file')
      return
    case 'CharDevice':
      if (!stat(path)?.isCharacterDevice()) throw fail('character device')
      return
    case 'BlockDevice':
      if (!stat(path)?.isBlockDevice()) throw fail('block device')
      return
    default:
      throw new Error(`${type} is an invalid volume type`)
  }
}
