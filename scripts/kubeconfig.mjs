#!/usr/bin/env node
// Print a kubeconfig for a local kubeflare: `node scripts/kubeconfig.mjs [PORT] [HOST] > kubeconfig.PORT.yaml`.
// PORT defaults to 8787, HOST to 127.0.0.1. Plain http, no credentials (kubectl sends none over http anyway), and
// insecure-skip-tls-verify because @kubernetes/client-node 2.x rejects http:// servers without it.
// kubeconfig.local.yaml in the repo root is exactly `node scripts/kubeconfig.mjs 8787`.
import { pathToFileURL } from 'node:url'

export function kubeconfig(port = 8787, host = '127.0.0.1') {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  return `apiVersion: v1
kind: Config
clusters:
- name: kubeflare-local
  cluster:
    server: http://${h}:${port}
    # Plain http, so there is no TLS to verify; @kubernetes/client-node (2.x) refuses an http:// server unless this is set.
    insecure-skip-tls-verify: true
users:
- name: kubeflare-local
  user: {}
contexts:
- name: kubeflare-local
  context:
    cluster: kubeflare-local
    user: kubeflare-local
    namespace: default
current-context: kubeflare-local
preferences: {}
`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [port = '8787', host = '127.0.0.1'] = process.argv.slice(2)
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    process.stderr.write(`usage: node scripts/kubeconfig.mjs [PORT] [HOST]   (got port ${JSON.stringify(port)})\n`)
    process.exit(2)
  }
  process.stdout.write(kubeconfig(Number(port), host))
}
