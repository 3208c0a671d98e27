// Whether this host can run the bridge pod network the agent sets up: root on Linux, with iptables on PATH (Debian's
// `iptables` package; .ci/run installs it). Tests that build the bridge skip elsewhere, saying why.
import { spawnSync } from 'node:child_process'

export const canBridge =
  process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('iptables', ['--version']).status === 0

export const BRIDGE_SKIP = !canBridge && 'needs root on Linux and iptables'
