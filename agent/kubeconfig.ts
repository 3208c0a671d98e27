// Reading a kubeconfig as client-go does for the agent's needs: the current context's server, CA and bearer token.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parse } from 'yaml'
import type { Obj } from './obj.ts'

export interface Connection {
  /** The API server's base URL, without a trailing slash. */
  server: string
  /** PEM of the CA that signs the server's certificate (from certificate-authority-data or -authority). */
  ca?: string
  insecure: boolean
  token?: string
}

type Named<T> = { name?: string } & Record<string, T | undefined>
export function loadKubeconfig(file: string): Connection {
  const text = readFileSync(file, 'utf8')
  const config = (parse(text) ?? {}) as Obj
  const pick = <T>(list: Named<T>[] | undefined, name: string | undefined, what: string, key: string): T => {
    const found = (list ?? []).find((x) => x.name === name)?.[key]
    if (!found) throw new Error(`kubeconfig ${file}: no ${what} named ${JSON.stringify(name ?? '')}`)
    return found
  }
  const contextName = config['current-context'] as string | undefined
  const context = pick<Obj>(config.contexts, contextName, 'context', 'context')
  const cluster = pick<Obj>(config.clusters, context.cluster, 'cluster', 'cluster')
  const user = context.user ? pick<Obj>(config.users, context.user, 'user', 'user') : {}
  const base = dirname(file)
  if (typeof cluster.server !== 'string' || !cluster.server)
    throw new Error(`kubeconfig ${file}: cluster ${context.cluster} has no server`)
  let ca: string | undefined
  if (cluster['certificate-authority-data'])
    ca = Buffer.from(String(cluster['certificate-authority-data']), 'base64').toString('utf8')
  else if (cluster['certificate-authority'])
    ca = readFileSync(resolve(base, String(cluster['certificate-authority'])), 'utf8')
  let token: string | undefined
  if (user.token) token = String(user.token)
  else if (user.tokenFile) token = readFileSync(resolve(base, String(user.tokenFile)), 'utf8').trim()
  return {
    server: cluster.server.replace(/\/+$/, ''),
    ca,
    insecure: cluster['insecure-skip-tls-verify'] === true,
    token,
  }
}
