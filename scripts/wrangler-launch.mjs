// How `npm start` runs wrangler with the least start-up time: its CLI bundle straight on this Node (wrangler's bin
// wrapper only checks the Node version, which start.mjs has done, and then spends a second Node start spawning the
// same file with --no-warnings), and with Node's compile cache, so the 15 MB CLI is not compiled anew on every start.
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The Node arguments that run wrangler (`[...prefix, ...wranglerArgs]`), the file that must exist, and the environment
 * additions. `root` is the project root; `env` the environment the child gets (a NODE_COMPILE_CACHE of the user's
 * own is kept, NODE_DISABLE_COMPILE_CACHE=1 turns the cache off).
 */
export function wranglerLaunch(root, env = process.env) {
  const wrangler = join(root, 'node_modules', 'wrangler')
  const cli = join(wrangler, 'wrangler-dist', 'cli.js')
  // The wrapper runs cli.js as `node --no-warnings <execArgv> cli.js <args>`; a wrangler that moves its CLI keeps
  // working through the wrapper.
  const prefix = existsSync(cli) ? ['--no-warnings', cli] : [join(wrangler, 'bin', 'wrangler.js')]
  const cacheEnv =
    env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE
      ? {}
      : { NODE_COMPILE_CACHE: join(root, 'node_modules', '.cache', 'kubeflare-node-compile-cache') }
  return { prefix, file: prefix[prefix.length - 1], env: cacheEnv }
}
