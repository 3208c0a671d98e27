// /version: we answer as kube-apiserver 1.33 (the kubectl dispatcher picks its client from this).
import type { Context } from 'hono'
import { rawJson } from './respond'

export const VERSION_INFO = {
  major: '1',
  minor: '33',
  emulationMajor: '1',
  emulationMinor: '33',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '32',
  gitVersion: 'v1.33.1',
  gitCommit: '8adc0f041b8e7ad1d30e29cc59c6ae7a15e19828',
  gitTreeState: 'clean',
  buildDate: '2025-05-15T08:19:08Z',
  goVersion: 'go1.24.2',
  compiler: 'gc',
  platform: 'linux/amd64',
}

// kube writes /version with WriteRawJSON: indented, no newline, whatever the request asks.
export const serveVersion = (c: Context) => rawJson(c, VERSION_INFO)
