#!/usr/bin/env node
// A stand-in for wrangler in scripts/deploy.mjs's tests (KUBEFLARE_WRANGLER points at it). It keeps an account's
// state in $FAKE_WRANGLER_STATE/account.json, appends every call (argv, stdin, whether stdin was a terminal) to
// $FAKE_WRANGLER_STATE/calls.jsonl, and answers as wrangler 4.155 does for the commands deploy.mjs runs.
// FAKE_WRANGLER_FAIL="d1 migrations apply" makes the call starting with those words fail as wrangler fails;
// FAKE_WRANGLER_NO_WORKERS_DEV=1 makes `deploy` print a custom domain only.
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.FAKE_WRANGLER_STATE
if (!dir) {
  process.stderr.write('FAKE_WRANGLER_STATE is not set\n')
  process.exit(2)
}
const accountFile = join(dir, 'account.json')
const account = existsSync(accountFile)
  ? JSON.parse(readFileSync(accountFile, 'utf8'))
  : { databases: [], applied: {}, secrets: {}, deployed: 0 }
const save = () => writeFileSync(accountFile, JSON.stringify(account, null, 2))

const args = process.argv.slice(2)
const configAt = args.indexOf('--config')
const config = configAt >= 0 ? args[configAt + 1] : 'wrangler.toml'
const words = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--config')

function readStdin() {
  if (process.stdin.isTTY) return Promise.resolve(null)
  return new Promise((resolve) => {
    let data = ''
    process.stdin.setEncoding('utf8')
    process.stdin.on('data', (d) => (data += d))
    process.stdin.on('end', () => resolve(data))
    process.stdin.on('error', () => resolve(data))
  })
}

/** wrangler's error shape: a red [ERROR] block on stderr, exit 1. */
function fail(message) {
  process.stderr.write(`\n✘ [ERROR] ${message}\n\n`)
  process.exit(1)
}

/** The database_id the config's DB binding names, as wrangler would read it. */
function configuredId() {
  return /database_id\s*=\s*"([^"]*)"/.exec(readFileSync(config, 'utf8'))?.[1]
}

const stdin = words[0] === 'secret' ? await readStdin() : null
appendFileSync(
  join(dir, 'calls.jsonl'),
  `${JSON.stringify({ args, stdin, stdinIsTTY: Boolean(process.stdin.isTTY), ci: process.env.CI ?? null })}\n`,
)
if (!existsSync(config)) fail(`Could not find the config file ${config}`)
const command = words.join(' ')
if (process.env.FAKE_WRANGLER_FAIL && command.startsWith(process.env.FAKE_WRANGLER_FAIL)) {
  fail('A request to the Cloudflare API (/accounts/0123/…) failed.\n\n  Authentication error [code: 10000]')
}

if (command === 'd1 list' && args.includes('--json')) {
  process.stdout.write(`${JSON.stringify(account.databases, null, 2)}\n`)
} else if (words[0] === 'd1' && words[1] === 'create') {
  const name = words[2]
  if (account.databases.some((db) => db.name === name)) fail('A database with that name already exists')
  const db = {
    uuid: randomUUID(),
    name,
    created_at: new Date().toISOString(),
    version: 'production',
    num_tables: 0,
    file_size: 12288,
  }
  account.databases.push(db)
  save()
  process.stdout.write(
    `✅ Successfully created DB '${name}' in region WEUR\nCreated your new D1 database.\n\n` +
      'To access your new D1 Database in your Worker, add the following snippet to your configuration file:\n' +
      `[[d1_databases]]\nbinding = "${name}"\ndatabase_name = "${name}"\ndatabase_id = "${db.uuid}"\n`,
  )
} else if (command === 'd1 migrations apply DB') {
  if (!args.includes('--remote')) fail('expected --remote')
  const id = configuredId()
  if (!account.databases.some((db) => db.uuid === id)) {
    fail(`Couldn't find DB with ID '${id}' [code: 7404]`)
  }
  if (account.applied[id]) process.stdout.write('✅ No migrations to apply!\n')
  else {
    account.applied[id] = true
    save()
    process.stdout.write(
      'Migrations to be applied:\n│ 0001_init.sql │\n🌀 Executing on remote database DB (' +
        id +
        '):\n' +
        '│ 0001_init.sql │ ✅ │\n',
    )
  }
} else if (words[0] === 'secret' && words[1] === 'put') {
  if (stdin === null) fail('the fake reads secrets from stdin only')
  account.secrets[words[2]] = stdin.replace(/\s+$/, '') // wrangler trims trailing whitespace
  save()
  process.stdout.write(`🌀 Creating the secret for the Worker "kubeflare" \n✨ Success! Uploaded secret ${words[2]}\n`)
} else if (command === 'deploy') {
  const id = configuredId()
  if (!account.databases.some((db) => db.uuid === id)) {
    fail(
      `A request to the Cloudflare API failed. binding DB of type d1 must have a valid \`id\` specified [code: 10021]`,
    )
  }
  account.deployed++
  save()
  const target = process.env.FAKE_WRANGLER_NO_WORKERS_DEV
    ? 'k8s.example.com (custom domain)'
    : 'https://kubeflare.example-sub.workers.dev'
  process.stdout.write(
    'Total Upload: 2094.37 KiB / gzip: 430.64 KiB\nYour Worker has access to the following bindings:\n' +
      'Binding                      Resource\nenv.DB (kubeflare)           D1 Database\n\n' +
      `Uploaded kubeflare (3.21 sec)\nDeployed kubeflare triggers (0.84 sec)\n  ${target}\n` +
      `Current Version ID: ${randomUUID()}\n`,
  )
} else {
  fail(`the fake wrangler does not know \`${command}\``)
}
