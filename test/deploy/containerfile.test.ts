/**
 * deploy/Containerfile read as the builder reads it (no container engine here): a multi-stage build on Node 22
 * slim whose image holds no compiler, runs as a non-root user Kubernetes can verify, starts the package's bin
 * with its health check and volume on the flags of its command, and copies from the build context only files
 * that exist and that .dockerignore lets through. image.test.ts builds and runs it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { healthcheckCommand, instructionsOf, readContainerfile } from '../support/containerfile.js'
import { REPO_ROOT } from '../support/run-script.js'

const stages = readContainerfile(join(REPO_ROOT, 'deploy', 'Containerfile'))
const final = stages.at(-1)!
const only = (keyword: string) => {
  const found = instructionsOf(final, keyword)
  expect(found, `one ${keyword} in the image's stage`).toHaveLength(1)
  return found[0]!
}
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }

describe('the Containerfile', () => {
  test('builds on Node 22 slim in stages, and the image runs as a non-root user, by number', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    for (const stage of stages) expect(stage.base).toMatch(/^node:22[\w.-]*-slim$/)
    // by number: Kubernetes' runAsNonRoot cannot check a name
    const [user = '', group] = only('USER').text.split(':')
    expect(user).toMatch(/^\d+$/)
    expect(Number(user)).not.toBe(0)
    if (group !== undefined) expect(Number(group)).not.toBe(0)
  })

  test('keeps the compilers and the package managers’ installs out of the image', () => {
    const installs = /\b(apt-get|apt|apk|npm|yarn|pnpm|pip3?)\s+(install|ci|add)\b/
    expect(instructionsOf(final, 'RUN').filter((r) => installs.test(r.text))).toEqual([])
    const buildTools = stages.slice(0, -1).flatMap((s) => instructionsOf(s, 'RUN').map((r) => r.text))
    expect(buildTools.join('\n')).toMatch(/apt-get install .*\bg\+\+/)
    // the image takes files from the build stage only, not the build context
    for (const copy of instructionsOf(final, 'COPY')) expect(copy.options.from).toBeDefined()
  })

  test("runs the package's bin, with /health as its health check and --data-dir as its volume", () => {
    const entrypoint = only('ENTRYPOINT').json!
    expect(entrypoint[0]).toBe('node')
    expect(entrypoint[1]).toMatch(new RegExp(`/${pkg.bin['preconf-rpc']!.replace('.', '\\.')}$`))
    const cmd = only('CMD').json!
    expect(only('VOLUME').text).toBe(cmd[cmd.indexOf('--data-dir') + 1])
    const port = cmd[cmd.indexOf('--port') + 1]
    expect(only('EXPOSE').text).toBe(port)
    expect(healthcheckCommand(only('HEALTHCHECK')).join(' ')).toContain(`http://127.0.0.1:${port}/health`)
  })

  test('copies nothing from the build context that .dockerignore leaves out', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
    const sources = stages.flatMap((s) =>
      instructionsOf(s, 'COPY')
        .filter((c) => !c.options.from)
        .flatMap((c) => c.text.split(/\s+/).slice(0, -1)),
    )
    for (const source of sources) {
      expect(existsSync(join(REPO_ROOT, source)), source).toBe(true)
      expect(
        ignored.filter((i) => source === i || source.startsWith(`${i}/`)),
        source,
      ).toEqual([])
    }
  })
})
