#!/usr/bin/env node
// `npm run deploy [-- --config FILE] [-- --url URL] [-- --state-dir DIR]`: put kubeflare on Cloudflare, idempotently.
//   1. the D1 database (`wrangler d1 list --json`, else `wrangler d1 create <database_name>`), its id recorded in the
//      config's [[d1_databases]] database_id (only that value changes; the file is replaced whole, never half-written);
//   2. the D1 migrations (`wrangler d1 migrations apply DB --remote`);
//   3. the secrets KUBEFLARE_TOKENS (the file KUBEFLARE_TOKENS_FILE names, else one admin token generated once),
//      KUBEFLARE_SA_SIGNING_KEY (a P-256 private JWK generated once) and KUBEFLARE_ENCRYPTION_KEY (the AES key Secrets
//      are encrypted with at rest, generated once), each through `wrangler secret put NAME` with the value on stdin:
//      never in an argument, never printed;
//   4. `wrangler deploy`, reading the workers.dev URL it prints (`--url` names another: a route or custom domain);
//   5. a kubeconfig for that https URL with the admin token (no CA data: the edge's certificate is public).
// Generated credentials and the kubeconfig live in `.kubeflare-deploy/` beside the config (gitignored), so a second
// run reuses them; delete a file there and run again to rotate it. Progress goes to stderr; stdout gets only the
// kubeconfig's path. KUBEFLARE_WRANGLER=<file.js> runs another wrangler (the tests' stand-in) with this node.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { kubeconfig } from './kubeconfig.mjs'
import { ensureEncryptionKey, ensureSigningKey, ensureTokens } from './local-credentials.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000'
const say = (msg) => process.stderr.write(`[kubeflare] ${msg}\n`)

class StepError extends Error {}

function usage(message) {
  process.stderr.write(
    `${message ? `${message}\n` : ''}usage: npm run deploy [-- --config wrangler.toml] [--url https://HOST] [--state-dir DIR]\n`,
  )
  process.exit(message ? 2 : 0)
}

// ---- options ------------------------------------------------------------------------------------------------------
const base = process.env.INIT_CWD ?? process.cwd() // npm runs scripts in the package root; paths are the user's
const opts = { config: join(root, 'wrangler.toml'), url: undefined, stateDir: undefined }
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i]]
  if (flag === '--help' || flag === '-h') usage()
  const value = inline ?? argv[++i]
  if (value === undefined) usage(`${flag} needs a value`)
  if (flag === '--config' || flag === '-c') opts.config = resolve(base, value)
  else if (flag === '--url') opts.url = value.replace(/\/+$/, '')
  else if (flag === '--state-dir') opts.stateDir = resolve(base, value)
  else usage(`unknown argument ${flag}`)
}
if (opts.url !== undefined && !/^https:\/\/[^/\s]+$/.test(opts.url)) usage('--url must be an https URL with no path')
if (!existsSync(opts.config)) usage(`no config file at ${opts.config}`)
const stateDir = opts.stateDir ?? join(dirname(opts.config), '.kubeflare-deploy')

// ---- running wrangler ---------------------------------------------------------------------------------------------
// The project's wrangler by default, on Node >= 22 (the node running this when it is one, else the one npm installed).
const wranglerJs = process.env.KUBEFLARE_WRANGLER
  ? resolve(base, process.env.KUBEFLARE_WRANGLER)
  : join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const localNode = join(root, 'node_modules', '.bin', 'node')
const nodeBin =
  process.env.KUBEFLARE_WRANGLER || Number(process.versions.node.split('.')[0]) >= 22 || !existsSync(localNode)
    ? process.execPath
    : localNode
if (!existsSync(wranglerJs)) {
  say(`${wranglerJs} is missing: run \`npm ci\` first.`)
  process.exit(1)
}
const wranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false',
  WRANGLER_HIDE_BANNER: process.env.WRANGLER_HIDE_BANNER ?? 'true',
}

/** Secret values to keep out of anything this script relays (wrangler never prints them; this makes sure). */
const secrets = []
function redact(text) {
  let out = text
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[redacted]')
  return out
}

/**
 * Runs wrangler with `--config`, relaying its output to stderr as it comes (stdout too, unless `quiet`), and answers
 * its exit code and stdout. `input` is written to its stdin (a secret's value); otherwise stdin is closed.
 */
function wrangler(args, { input, quiet = false, env = {} } = {}) {
  const full = [...args, '--config', opts.config]
  return new Promise((resolvePromise) => {
    const child = spawn(nodeBin, [wranglerJs, ...full], {
      cwd: root,
      env: { ...wranglerEnv, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let output = ''
    child.stdout.on('data', (d) => {
      stdout += d
      output += d
      if (!quiet) process.stderr.write(redact(String(d)))
    })
    child.stderr.on('data', (d) => {
      output += d
      process.stderr.write(redact(String(d)))
    })
    if (input !== undefined) {
      child.stdin.on('error', () => {}) // a wrangler that exits early closes the pipe; its exit code tells why
      child.stdin.end(input)
    }
    child.on('error', (err) => resolvePromise({ code: 1, stdout, output: `${output}${err.message}\n` }))
    child.on('close', (code, signal) => resolvePromise({ code: code ?? 128, signal, stdout, output }))
  })
}

async function mustRun(args, what, runOpts) {
  say(`wrangler ${args.join(' ')} --config ${opts.config}`)
  const res = await wrangler(args, runOpts)
  if (res.code !== 0) throw new StepError(`\`wrangler ${args.join(' ')}\` ${what} (exit ${res.signal ?? res.code})`)
  return res
}

// ---- the config's [[d1_databases]] entry --------------------------------------------------------------------------
/** The lines of the [[d1_databases]] table whose binding is `binding`, and the values in it. */
function d1Entry(text, binding) {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\[\[\s*d1_databases\s*\]\]\s*(#.*)?$/.test(lines[i])) continue
    let end = i + 1
    while (end < lines.length && !/^\s*\[/.test(lines[end])) end++
    const value = (key) => {
      for (let j = i + 1; j < end; j++) {
        const m = new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`).exec(lines[j])
        if (m) return { line: j, value: m[1] }
      }
      return undefined
    }
    if (value('binding')?.value !== binding) continue
    return { lines, start: i, end, name: value('database_name'), id: value('database_id') }
  }
  return undefined
}

/** The config with database_id set to `id`, every other byte as it was. */
function withDatabaseId(entry, id) {
  const lines = [...entry.lines]
  if (entry.id) lines[entry.id.line] = lines[entry.id.line].replace(/"[^"]*"/, `"${id}"`)
  else lines.splice((entry.name?.line ?? entry.start) + 1, 0, `database_id = "${id}"`)
  return lines.join('\n')
}

/** Replaces the file in one rename, so an interrupted run leaves the old file or the new one, never half of one. */
function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, text, { mode: statSync(file).mode & 0o777 })
    renameSync(tmp, file)
  } catch (e) {
    try {
      unlinkSync(tmp)
    } catch {}
    throw e
  }
}

// ---- the steps ----------------------------------------------------------------------------------------------------
async function ensureDatabase() {
  const text = readFileSync(opts.config, 'utf8')
  const entry = d1Entry(text, 'DB')
  if (!entry) throw new StepError(`${opts.config} has no [[d1_databases]] entry with binding = "DB"`)
  const name = entry.name?.value || 'kubeflare'
  const configured = entry.id?.value ?? PLACEHOLDER_ID

  const list = await mustRun(['d1', 'list', '--json'], 'could not list the D1 databases', { quiet: true })
  let dbs
  try {
    dbs = JSON.parse(list.stdout.slice(list.stdout.indexOf('[')))
    if (!Array.isArray(dbs)) throw new Error('not a list')
  } catch {
    throw new StepError('`wrangler d1 list --json` did not answer a JSON list of databases')
  }
  if (configured !== PLACEHOLDER_ID) {
    if (dbs.some((db) => db.uuid === configured)) {
      say(`D1 database ${configured} (from ${opts.config}) exists`)
      return
    }
    throw new StepError(
      `database_id ${configured} in ${opts.config} is not a D1 database of this account: set it back to ` +
        `"${PLACEHOLDER_ID}" to create or find "${name}", or use the account it belongs to (CLOUDFLARE_ACCOUNT_ID)`,
    )
  }
  let id = dbs.find((db) => db.name === name)?.uuid
  if (id) say(`D1 database "${name}" exists: ${id}`)
  else {
    const created = await mustRun(['d1', 'create', name], `could not create the D1 database "${name}"`)
    id = /database_id"?\s*[:=]\s*"([0-9a-f-]{36})"/i.exec(created.stdout)?.[1]
    if (!id) {
      const again = await mustRun(['d1', 'list', '--json'], 'could not list the D1 databases', { quiet: true })
      try {
        id = JSON.parse(again.stdout.slice(again.stdout.indexOf('['))).find((db) => db.name === name)?.uuid
      } catch {}
    }
    if (!id) throw new StepError(`created the D1 database "${name}" but could not read its id`)
    say(`created D1 database "${name}": ${id}`)
  }
  writeAtomically(opts.config, withDatabaseId(entry, id))
  say(`recorded database_id = "${id}" in ${opts.config}`)
}

function prepareCredentials() {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 })
  const tokensFile = process.env.KUBEFLARE_TOKENS_FILE ? resolve(base, process.env.KUBEFLARE_TOKENS_FILE) : undefined
  let tokens
  try {
    tokens = ensureTokens(stateDir, tokensFile)
  } catch (e) {
    throw new StepError(`could not read the token file ${tokensFile}: ${e.message}`)
  }
  if (!tokens.text.trim()) throw new StepError(`the token file ${tokensFile} is empty`)
  const signingKey = ensureSigningKey(stateDir)
  const encryptionKey = ensureEncryptionKey(stateDir)
  secrets.push(tokens.text.trim(), signingKey, encryptionKey, encryptionKey.split(':')[1])
  for (const line of tokens.text.split(/\r?\n/)) secrets.push(line.split(',')[0].replace(/^"|"$/g, ''))
  secrets.push(JSON.parse(signingKey).d)
  say(
    `tokens: ${tokensFile ?? join(stateDir, 'tokens.csv')}; ServiceAccount signing key: ${join(stateDir, 'sa-signing-key.jwk')}; ` +
      `encryption key: ${join(stateDir, 'encryption-key')} (keep it: the stored Secrets cannot be read without it)`,
  )
  return { tokens, signingKey, encryptionKey }
}

async function putSecrets({ tokens, signingKey, encryptionKey }) {
  for (const [name, value] of [
    ['KUBEFLARE_TOKENS', tokens.text],
    ['KUBEFLARE_SA_SIGNING_KEY', signingKey],
    ['KUBEFLARE_ENCRYPTION_KEY', encryptionKey],
  ]) {
    await mustRun(['secret', 'put', name], `could not set the secret ${name}`, { input: value })
  }
}

async function deployWorker() {
  const res = await mustRun(['deploy'], 'failed')
  if (opts.url) return opts.url
  // `Deployed <name> triggers (…)` is followed by one indented line per target; workers.dev ones carry https://.
  const url = /^\s+(https:\/\/[^\s/]+\.workers\.dev)\s*$/m.exec(res.stdout)?.[1]
  if (!url) {
    throw new StepError(
      '`wrangler deploy` succeeded but printed no workers.dev URL (is workers_dev off, or does it serve only routes or ' +
        'custom domains?): run again with `--url https://<your host>`',
    )
  }
  return url
}

function writeKubeconfig(url, tokens) {
  if (!tokens.admin) say('the token file has no system:masters token: the kubeconfig carries no token')
  const file = join(stateDir, 'kubeconfig.yaml')
  writeFileSync(file, kubeconfig({ server: url, token: tokens.admin ?? undefined }), { mode: 0o600 })
  return file
}

// ---- main ---------------------------------------------------------------------------------------------------------
let step = 'credentials'
try {
  const creds = prepareCredentials()
  step = 'D1 database'
  await ensureDatabase()
  step = 'D1 migrations'
  await mustRun(['d1', 'migrations', 'apply', 'DB', '--remote'], 'failed', { env: { CI: '1' } })
  step = 'secrets'
  await putSecrets(creds)
  step = 'deploy'
  const url = await deployWorker()
  step = 'kubeconfig'
  const file = writeKubeconfig(url, creds.tokens)
  say(`deployed: ${url}`)
  say(`kubeconfig (the admin token): ${file}`)
  say(`    kubectl --kubeconfig ${file} get namespaces`)
  process.stdout.write(`${file}\n`)
} catch (e) {
  say(`deploy failed at step "${step}": ${redact(e instanceof StepError ? e.message : String(e?.stack ?? e))}`)
  say(
    'Nothing after that step ran. Fix the cause (wrangler login or CLOUDFLARE_API_TOKEN + CLOUDFLARE_ACCOUNT_ID, ' +
      'the plan, the network) and run `npm run deploy` again: every step is safe to repeat.',
  )
  process.exit(1)
}
