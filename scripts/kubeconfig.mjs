#!/usr/bin/env node
// Print a kubeconfig for a kubeflare anywhere:
//   node scripts/kubeconfig.mjs --server https://kubeflare.example.workers.dev --token <token> [--ca-file ca.crt]
//   node scripts/kubeconfig.mjs [PORT] [HOST]         (a local plain-http server, no credentials)
// `npm start` writes one for its own server next to its state (the path is printed when it is ready).
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/**
 * The kubeconfig text. An https server is verified against `caData` (base64 PEM) when given, else against the
 * system's roots; a plain-http one needs insecure-skip-tls-verify, because @kubernetes/client-node 2.x refuses an
 * http:// server without it (client-go sends no token over http anyway).
 */
export function kubeconfig(opts = {}, legacyHost) {
  const { server, token, caData } = typeof opts === 'number' ? { server: localServer(opts, legacyHost) } : opts
  const url = server ?? localServer(8787)
  const tls = url.startsWith('https:')
    ? caData
      ? `    certificate-authority-data: ${caData}\n`
      : ''
    : '    # Plain http: there is no TLS to verify; @kubernetes/client-node (2.x) refuses an http:// server unless this is set.\n    insecure-skip-tls-verify: true\n'
  const user = token ? `  user:\n    token: ${token}\n` : '  user: {}\n'
  return `apiVersion: v1
kind: Config
clusters:
- name: kubeflare
  cluster:
    server: ${url}
${tls}users:
- name: kubeflare
${user}contexts:
- name: kubeflare
  context:
    cluster: kubeflare
    user: kubeflare
    namespace: default
current-context: kubeflare
preferences: {}
`
}

function localServer(port, host = '127.0.0.1') {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  return `http://${h}:${port}`
}

function usage(message) {
  process.stderr.write(
    `${message}\nusage: node scripts/kubeconfig.mjs --server URL [--token TOKEN] [--ca-file FILE]\n       node scripts/kubeconfig.mjs [PORT] [HOST]\n`,
  )
  process.exit(2)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  if (args[0]?.startsWith('--')) {
    const opts = {}
    for (let i = 0; i < args.length; i += 2) {
      const [flag, value] = [args[i], args[i + 1]]
      if (value === undefined) usage(`${flag} needs a value`)
      if (flag === '--server') opts.server = value
      else if (flag === '--token') opts.token = value
      else if (flag === '--ca-file') opts.caData = Buffer.from(readFileSync(value)).toString('base64')
      else usage(`unknown flag ${flag}`)
    }
    if (!opts.server || !/^https?:\/\/[^/]+/.test(opts.server)) usage('--server must be an http(s) URL')
    process.stdout.write(kubeconfig(opts))
  } else {
    const [port = '8787', host = '127.0.0.1'] = args
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) usage(`bad port ${JSON.stringify(port)}`)
    process.stdout.write(kubeconfig(Number(port), host))
  }
}
