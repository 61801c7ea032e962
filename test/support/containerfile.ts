/**
 * For tests: a Containerfile (Dockerfile syntax) read into its stages and instructions, since no container
 * engine runs here: line continuations and comments as the builder reads them, `--flag=value` options, and
 * the JSON (exec) form of ENTRYPOINT, CMD and HEALTHCHECK CMD.
 */
import { readFileSync } from 'node:fs'

interface Instruction {
  /** Upper case: FROM, RUN, COPY, ... */
  keyword: string
  /** `--from=build` -> { from: 'build' } */
  options: Record<string, string>
  /** The rest of the line, options removed. */
  text: string
  /** The JSON array when `text` is one (exec form). */
  json?: string[]
}

export interface Stage {
  /** The image it starts from. */
  base: string
  /** `FROM ... AS name` */
  name?: string
  instructions: Instruction[]
}

function parseInstruction(line: string): Instruction {
  const [, keyword = '', rest = ''] = /^(\w+)\s*(.*)$/s.exec(line) ?? []
  const options: Record<string, string> = {}
  let text = rest
  for (let option = /^--([\w-]+)=(\S+)\s+/.exec(text); option; option = /^--([\w-]+)=(\S+)\s+/.exec(text)) {
    options[option[1]!] = option[2]!
    text = text.slice(option[0].length)
  }
  let json: string[] | undefined
  if (text.startsWith('[')) json = JSON.parse(text) as string[]
  return { keyword: keyword.toUpperCase(), options, text, json }
}

/** The stages of the Containerfile at `path`, in order; the last is the image. */
export function readContainerfile(path: string): Stage[] {
  const logical: string[] = []
  let pending = ''
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim()
    // a comment line is dropped, even inside a continued instruction
    if (line.startsWith('#')) continue
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `
      continue
    }
    const whole = (pending + line).trim()
    pending = ''
    if (whole) logical.push(whole)
  }
  const stages: Stage[] = []
  for (const line of logical) {
    const instruction = parseInstruction(line)
    if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = instruction.text.split(/\s+/)
      stages.push({ base, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] })
    } else {
      const stage = stages.at(-1)
      if (!stage) throw new Error(`${path}: ${instruction.keyword} before any FROM`)
      stage.instructions.push(instruction)
    }
  }
  return stages
}

/** The stage's instructions with that keyword. */
export const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword)

/** HEALTHCHECK's command: `HEALTHCHECK [options] CMD [...]` -> the exec-form array after CMD. */
export function healthcheckCommand(instruction: Instruction): string[] {
  const [, command = ''] = /^CMD\s+(.*)$/s.exec(instruction.text) ?? []
  return JSON.parse(command) as string[]
}
