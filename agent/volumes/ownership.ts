// A volume's files given to the pod's fsGroup, as kubelet's SetVolumeOwnership does for emptyDir, configMap, secret,
// downwardAPI and projected volumes: every file and directory (symlinks too, not followed) gets the group; files gain
// group read (and write, for a volume that is not read-only), directories also group search and the setgid bit, so
// that what is created in them later keeps the group. A secret with defaultMode 0400 becomes 0440: readable by a
// container running as another user with that supplementary group.
import { chmodSync, lchownSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const RO_MASK = 0o440
const RW_MASK = 0o660
const EXEC_MASK = 0o110
const SETGID = 0o2000

/** Walks `dir` giving it to group `gid`; `readOnly` volumes get group read only. */
export function setVolumeOwnership(dir: string, gid: number, readOnly: boolean) {
  const walk = (path: string) => {
    const st = lstatSync(path)
    lchownSync(path, -1, gid)
    if (st.isSymbolicLink()) return
    let mask = readOnly ? RO_MASK : RW_MASK
    if (st.isDirectory()) mask |= EXEC_MASK | SETGID
    chmodSync(path, (st.mode & 0o7777) | mask)
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  walk(dir)
}
