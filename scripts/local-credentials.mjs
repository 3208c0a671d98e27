// What a local kubeflare needs to serve HTTPS with tokens, made on first start and kept in the state directory
// (`<state>/kubeflare/`): a CA and a server certificate for the names start.mjs wants (127.0.0.1, ::1, localhost, the
// --ip address or every interface's, the hostname: scripts/server-cert-names.mjs), made again under the same CA when
// they change; the token file (the user's KUBEFLARE_TOKENS_FILE, or one admin token generated once); the
// ServiceAccount token signing key; the key Secrets are encrypted with at rest; the env file that hands them (and the
// CA, published in every namespace as the kube-root-ca.crt ConfigMap) to `wrangler dev` as secrets; and a kubeconfig
// carrying the CA and the admin token.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { kubeconfig } from './kubeconfig.mjs'
import { LOOPBACK_NAMES, altNames, certificateNames, sameNames } from './server-cert-names.mjs'

// node-forge takes 100-150 ms to load: only a start that makes certificates (the first one) pays for it.
let forgeModule = null
const forge = () => (forgeModule ??= createRequire(import.meta.url)('node-forge'))

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000

/** An RSA key from Node's crypto (fast), in forge's form for signing certificates. */
function rsaKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' })
  const key = forge().pki.privateKeyFromPem(pem)
  return { pem, key, publicKey: forge().pki.setRsaPublicKey(key.n, key.e) }
}

function certificate({ subject, issuer, publicKey, signer, ca, altNames }) {
  const { pki, md } = forge()
  const cert = pki.createCertificate()
  cert.publicKey = publicKey
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`
  cert.validity.notBefore = new Date(Date.now() - 60_000)
  cert.validity.notAfter = new Date(Date.now() + TEN_YEARS_MS)
  cert.setSubject([{ name: 'commonName', value: subject }])
  cert.setIssuer([{ name: 'commonName', value: issuer }])
  const extensions = [{ name: 'basicConstraints', cA: ca, critical: true }]
  if (ca) extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true })
  else {
    extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true })
    extensions.push({ name: 'extKeyUsage', serverAuth: true })
    extensions.push({ name: 'subjectAltName', altNames })
  }
  cert.setExtensions(extensions)
  cert.sign(signer, md.sha256.create())
  return pki.certificateToPem(cert)
}

/** A private key PEM in forge's form, for signing. */
const forgeKey = (pem) => forge().pki.privateKeyFromPem(pem)

/**
 * The CA and the server certificate for `names` ({ips, dns}). The CA is made once; its key is kept (ca.key) so that
 * a start wanting other names gets a new server certificate under the same CA, which kubeconfigs and node agents
 * already trust. A state directory whose CA key was not kept (made before) gets a new CA then. Answers the files and
 * what was made: 'ca' (everything), 'server' (the server certificate), or null (nothing).
 */
function ensureTls(dir, names) {
  const files = {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
  }
  const complete = [files.caCert, files.cert, files.key].every((f) => existsSync(f))
  if (complete && sameNames(certificateNames(readFileSync(files.cert, 'utf8')), names)) return { files, made: null }
  let caKey
  const made = complete && existsSync(files.caKey) ? 'server' : 'ca'
  if (made === 'server') caKey = forgeKey(readFileSync(files.caKey, 'utf8'))
  else {
    const ca = rsaKey()
    caKey = ca.key
    const caPem = certificate({
      subject: 'kubeflare-local-ca',
      issuer: 'kubeflare-local-ca',
      publicKey: ca.publicKey,
      signer: ca.key,
      ca: true,
    })
    writeFileSync(files.caKey, ca.pem, { mode: 0o600 })
    // The mode applies only to a new file: one written over keeps its own.
    chmodSync(files.caKey, 0o600)
    writeFileSync(files.caCert, caPem)
  }
  const server = rsaKey()
  const serverPem = certificate({
    subject: 'kubeflare',
    issuer: 'kubeflare-local-ca',
    publicKey: server.publicKey,
    signer: caKey,
    ca: false,
    altNames: altNames(names),
  })
  writeFileSync(files.cert, serverPem)
  writeFileSync(files.key, server.pem, { mode: 0o600 })
  chmodSync(files.key, 0o600)
  return { files, made }
}

/** One CSV record's fields, quotes as encoding/csv reads them (the Worker parses the file properly; this only finds the admin). */
function csvFields(line) {
  const fields = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (field += '"'), i++
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') fields.push(field), (field = '')
    else field += c
  }
  fields.push(field)
  return fields
}

/**
 * The token file's text and the admin token in it (the first token whose groups include system:masters): the file
 * at `tokensFile` when given, else `<dir>/tokens.csv`, made once with one generated admin token.
 */
export function ensureTokens(dir, tokensFile) {
  if (tokensFile) {
    const text = readFileSync(tokensFile, 'utf8')
    const admin = text
      .split(/\r?\n/)
      .map(csvFields)
      .find((f) => f.length >= 4 && f[0] !== '' && f[3].split(',').includes('system:masters'))?.[0]
    return { text, admin: admin ?? null }
  }
  const file = join(dir, 'tokens.csv')
  if (!existsSync(file)) {
    writeFileSync(file, `${randomBytes(24).toString('base64url')},kubeflare-admin,kubeflare-admin,system:masters\n`, {
      mode: 0o600,
    })
  }
  const text = readFileSync(file, 'utf8')
  return { text, admin: text.split(',')[0] }
}

/** The ServiceAccount token signing key: an ES256 private JWK (`{kty, x, y, crv, d}`), made once in `<dir>`. */
export function ensureSigningKey(dir) {
  const file = join(dir, 'sa-signing-key.jwk')
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    writeFileSync(file, JSON.stringify(privateKey.export({ format: 'jwk' })), { mode: 0o600 })
  }
  return readFileSync(file, 'utf8')
}

/**
 * The key Secrets are encrypted with at rest (KUBEFLARE_ENCRYPTION_KEY, kube's aesgcm provider): `key1:` and 32
 * random bytes in base64, made once in `<dir>`. Losing it makes the stored Secrets unreadable.
 */
export function ensureEncryptionKey(dir) {
  const file = join(dir, 'encryption-key')
  if (!existsSync(file)) writeFileSync(file, `key1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 })
  return readFileSync(file, 'utf8').trim()
}

/** A dotenv value wrangler reads back whole: backticks keep quotes and newlines as they are. */
function dotenvValue(name, value) {
  if (value.includes('`')) throw new Error(`${name} may not contain a backtick`)
  return `${name}=\`${value}\``
}

/**
 * Makes (or reuses) everything under `<stateDir>/kubeflare/` and answers the paths and values start.mjs needs.
 * `server` is the URL the kubeconfig points at (a name of `serverNames`, the {ips, dns} the server certificate
 * carries, the loopback names unless given: scripts/server-cert-names.mjs); `tlsMade` says what certificates this
 * call made ('ca', 'server' or null).
 */
export function ensureLocalCredentials(
  stateDir,
  { tokensFile, server, https, allowedHosts, serverNames = LOOPBACK_NAMES },
) {
  const dir = join(stateDir, 'kubeflare')
  mkdirSync(dir, { recursive: true })
  const { files: tls, made: tlsMade } = ensureTls(dir, serverNames)
  const tokens = ensureTokens(dir, tokensFile)
  const signingKey = ensureSigningKey(dir)
  const encryptionKey = ensureEncryptionKey(dir)
  const envFile = join(dir, 'dev.env')
  writeFileSync(
    envFile,
    [
      dotenvValue('KUBEFLARE_TOKENS', tokens.text),
      dotenvValue('KUBEFLARE_SA_SIGNING_KEY', signingKey),
      dotenvValue('KUBEFLARE_ENCRYPTION_KEY', encryptionKey),
      dotenvValue('KUBEFLARE_ROOT_CA', readFileSync(tls.caCert, 'utf8')),
      dotenvValue('KUBEFLARE_ALLOWED_HOSTS', allowedHosts.join(',')),
      '',
    ].join('\n'),
    { mode: 0o600 },
  )
  const kubeconfigFile = join(dir, 'kubeconfig.yaml')
  const caData = https ? Buffer.from(readFileSync(tls.caCert)).toString('base64') : undefined
  writeFileSync(kubeconfigFile, kubeconfig({ server, token: tokens.admin ?? undefined, caData }), { mode: 0o600 })
  return { dir, tls, tlsMade, envFile, kubeconfigFile, adminToken: tokens.admin }
}
