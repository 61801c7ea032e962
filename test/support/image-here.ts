/**
 * For tests: deploy/Containerfile's image made on this machine as far as it can be without a container engine.
 * Its build stages run here, each under a scratch directory standing for the container's `/`: the files its
 * COPY lines take from the build context, then its RUN lines verbatim, each in its WORKDIR. Two RUN lines have
 * their result here already and are not run: the compilers (apt-get) and the dev dependencies (this checkout's
 * node_modules, installed from the same lockfile). The image's own stage is then read: what it COPYs from a
 * build stage is found where that stage made it, and its ENTRYPOINT runs from there with its WORKDIR and ENV.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { instructionsOf, readContainerfile, type Stage } from './containerfile.js'
import { userEnv } from './packed-package.js'
import { REPO_ROOT } from './run-script.js'
import { tracked } from './children.js'

const run = promisify(execFile)

/** RUN lines whose result this machine has: what stands in for each. */
const ALREADY_HERE: { run: RegExp; here: (workdir: string) => void }[] = [
  { run: /^apt-get /, here: () => {} },
  {
    run: /^npm ci (?!.*--omit=dev)/,
    here: (workdir) => symlinkSync(join(REPO_ROOT, 'node_modules'), join(workdir, 'node_modules')),
  },
]

export interface ImageHere {
  /** The last stage: the image. */
  image: Stage
  /** Where a path of the image's file system is here (what it copied from a build stage). */
  local(containerPath: string): string
  /** The image's environment (ENV) over a user's. */
  env: NodeJS.ProcessEnv
  /** The image's WORKDIR, here. */
  workdir: string
  remove(): Promise<void>
}

/** `COPY src... dest` of the build context into `workdir` (a directory's contents, as the builder copies it). */
function copyFromContext(sources: string[], dest: string, workdir: string): void {
  const into = dest.endsWith('/') || dest === '.' || sources.length > 1
  for (const source of sources) {
    const target = into ? join(workdir, dest, source.split('/').at(-1)!) : join(workdir, dest)
    mkdirSync(dirname(target), { recursive: true })
    cpSync(join(REPO_ROOT, source), target, { recursive: true })
  }
}

async function runStage(stage: Stage, root: string): Promise<void> {
  let workdir = root
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'WORKDIR') {
      workdir = join(root, instruction.text)
      mkdirSync(workdir, { recursive: true })
    } else if (instruction.keyword === 'COPY') {
      if (instruction.options.from) throw new Error(`COPY --from in build stage ${stage.name}: not emulated`)
      const parts = instruction.text.split(/\s+/)
      copyFromContext(parts.slice(0, -1), parts.at(-1)!, workdir)
    } else if (instruction.keyword === 'RUN') {
      const standIn = ALREADY_HERE.find((s) => s.run.test(instruction.text))
      if (standIn) {
        standIn.here(workdir)
        continue
      }
      // an absolute path would reach this machine's, not the scratch root's
      if (/(^|[\s=])\//.test(instruction.text))
        throw new Error(`RUN with an absolute path cannot run here; use WORKDIR-relative paths: ${instruction.text}`)
      await run('sh', ['-c', instruction.text], { cwd: workdir, env: userEnv(), maxBuffer: 16 * 1024 * 1024 })
    }
  }
}

/** Runs the build stages of the Containerfile at `path` here (npm pack, npm ci --omit=dev: tens of seconds). */
export async function buildImageHere(path: string): Promise<ImageHere> {
  const stages = readContainerfile(path)
  const image = stages.at(-1)!
  const root = mkdtempSync(join(tmpdir(), 'preconf-rpc-image-'))
  const roots = new Map<string, string>()
  try {
    for (const stage of stages.slice(0, -1)) {
      const stageRoot = join(root, stage.name ?? String(roots.size))
      roots.set(stage.name ?? String(roots.size), stageRoot)
      await runStage(stage, stageRoot)
    }
  } catch (err) {
    await rm(root, { recursive: true, force: true })
    throw err
  }
  const copies = instructionsOf(image, 'COPY').map((copy) => {
    const [source = '', dest = ''] = copy.text.split(/\s+/)
    const from = roots.get(copy.options.from ?? '')
    if (!from) throw new Error(`the image's COPY ${copy.text} is not from a build stage`)
    return { dest, local: join(from, source) }
  })
  const local = (containerPath: string) => {
    const copy = copies.find((c) => containerPath === c.dest || containerPath.startsWith(`${c.dest}/`))
    if (!copy) throw new Error(`${containerPath} is not in what the image copies from its build stage`)
    return copy.local + containerPath.slice(copy.dest.length)
  }
  const env: NodeJS.ProcessEnv = { ...userEnv() }
  for (const { text } of instructionsOf(image, 'ENV')) {
    const [name = '', value = ''] = text.split('=')
    env[name] = value
  }
  const workdir = local(instructionsOf(image, 'WORKDIR').at(-1)?.text ?? '/')
  return { image, local, env, workdir, remove: () => rm(root, { recursive: true, force: true }) }
}

/** The image's ENTRYPOINT with `args` (a pod's `args`, or the image's CMD) under `node`, here. */
export function runEntrypoint(image: ImageHere, node: string, args: readonly string[]): ChildProcess {
  const [executable, ...rest] = instructionsOf(image.image, 'ENTRYPOINT').at(-1)?.json ?? []
  if (executable !== 'node') throw new Error(`ENTRYPOINT runs ${executable}, not node`)
  const argv = rest.map((arg) => (arg.startsWith('/') ? image.local(arg) : arg))
  return tracked(
    spawn(node, [...argv, ...args], { cwd: image.workdir, env: image.env, stdio: ['ignore', 'pipe', 'pipe'] }),
  )
}
