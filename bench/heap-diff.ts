/**
 * What an aged instance holds that a fresh one does not: two heap snapshots (bench/aging.ts --snapshots, or
 * writeHeapSnapshot in live-heap.ts) compared by constructor (V8's node name: an object's constructor, a
 * string, an array's kind), self size and count; then, for the constructors that grew most, who retains
 * them: a sample of the aged snapshot's instances walked up their retainers (strong edges, the first
 * retainer at each step) `--depth` steps, the paths counted.
 *
 *   npx tsx bench/heap-diff.ts FRESH.heapsnapshot AGED.heapsnapshot [--top 25] [--paths 8] [--depth 4] [--levels 2]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    paths: { type: 'string', default: '8' },
    depth: { type: 'string', default: '4' },
    sample: { type: 'string', default: '4000' },
    levels: { type: 'string', default: '2' },
  },
})

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } }
  nodes: number[]
  edges: number[]
  strings: string[]
}

class Heap {
  readonly nodeCount: number
  private readonly nf: number
  private readonly ef: number
  private readonly firstEdge: Uint32Array
  private retainersStart?: Uint32Array
  private retainers?: Uint32Array

  constructor(private readonly s: Snapshot) {
    this.nf = s.snapshot.meta.node_fields.length
    this.ef = s.snapshot.meta.edge_fields.length
    this.nodeCount = s.nodes.length / this.nf
    this.firstEdge = new Uint32Array(this.nodeCount + 1)
    const edgeCount = s.snapshot.meta.node_fields.indexOf('edge_count')
    for (let i = 0; i < this.nodeCount; i++)
      this.firstEdge[i + 1] = this.firstEdge[i]! + s.nodes[i * this.nf + edgeCount]! * this.ef
  }

  /** V8's kind of node and name folded into one key: `Foo` for objects, `(string)`, `(array) (object elements)`... */
  key(i: number): string {
    const type = this.s.snapshot.meta.node_types[0][this.s.nodes[i * this.nf]!]!
    const name = this.s.strings[this.s.nodes[i * this.nf + 1]!]!
    if (type === 'object' || type === 'native') return name.length > 60 ? `${name.slice(0, 57)}...` : name
    if (type.endsWith('string')) return '(string)'
    if (type === 'array' || type === 'hidden' || type === 'object shape') return `(${type}) ${name.slice(0, 40)}`
    return `(${type})`
  }

  selfSize(i: number): number {
    return this.s.nodes[i * this.nf + 3]!
  }

  byKey(): Map<string, { count: number; size: number; nodes: number[] }> {
    const out = new Map<string, { count: number; size: number; nodes: number[] }>()
    for (let i = 0; i < this.nodeCount; i++) {
      const key = this.key(i)
      let entry = out.get(key)
      if (!entry) out.set(key, (entry = { count: 0, size: 0, nodes: [] }))
      entry.count++
      entry.size += this.selfSize(i)
      entry.nodes.push(i)
    }
    return out
  }

  /** The first strong retainer of node `i` and the edge's name, if any (weak and shortcut edges skipped). */
  retainer(i: number): { node: number; edge: string } | undefined {
    if (!this.retainers) this.indexRetainers()
    const types = this.s.snapshot.meta.edge_types[0]
    for (let r = this.retainersStart![i]!; r < this.retainersStart![i + 1]!; r += 2) {
      const from = this.retainers![r]!
      const e = this.retainers![r + 1]!
      const type = types[this.s.edges[e]!]!
      if (type === 'weak' || type === 'shortcut') continue
      const nameOrIndex = this.s.edges[e + 1]!
      const edge = type === 'element' || type === 'hidden' ? '[]' : String(this.s.strings[nameOrIndex])
      return { node: from, edge }
    }
    return undefined
  }

  /**
   * Every node's self size summed by who owns it: the nearest named (non-GENERIC) objects up its first
   * retainers, `levels` of them (an approximation of retained size that needs no dominator tree).
   */
  byOwner(levels: number): Map<string, number> {
    const UNKNOWN = -1
    const ancestor = new Int32Array(this.nodeCount).fill(-2) // -2: not yet known
    const via = new Array<string>(this.nodeCount)
    const resolve = (start: number) => {
      const chain: number[] = []
      let from = -1 // a generic retainer already resolved: the chain inherits its owner
      for (let i = start; ; ) {
        ancestor[i] = UNKNOWN // a cycle of first retainers ends here
        chain.push(i)
        const up = this.retainer(i)
        if (!up) break
        if (!GENERIC.test(this.key(up.node))) {
          ancestor[i] = up.node
          via[i] = up.edge.replace(/^\d+$/, '[]')
          break
        }
        if (ancestor[up.node] !== -2) {
          from = up.node
          break
        }
        i = up.node
      }
      const top = from >= 0 ? from : chain.at(-1)!
      for (const n of chain) {
        ancestor[n] = ancestor[top]!
        via[n] = via[top]!
      }
    }
    const out = new Map<string, number>()
    for (let i = 0; i < this.nodeCount; i++) {
      const steps: string[] = []
      for (let n = i, l = 0; l < levels; l++) {
        if (ancestor[n] === -2) resolve(n)
        const a = ancestor[n]!
        if (a < 0) break
        steps.push(`${this.key(a)}.${via[n]}`)
        n = a
      }
      const label = steps.join(' <- ') || '(root)'
      out.set(label, (out.get(label) ?? 0) + this.selfSize(i))
    }
    return out
  }

  private indexRetainers() {
    const { edges } = this.s
    const to = this.s.snapshot.meta.edge_fields.indexOf('to_node')
    const count = new Uint32Array(this.nodeCount + 1)
    for (let e = 0; e < edges.length; e += this.ef) count[edges[e + to]! / this.nf]!++
    this.retainersStart = new Uint32Array(this.nodeCount + 1)
    for (let i = 0; i < this.nodeCount; i++) this.retainersStart[i + 1] = this.retainersStart[i]! + count[i]! * 2
    this.retainers = new Uint32Array(this.retainersStart[this.nodeCount]!)
    const fill = this.retainersStart.slice()
    for (let from = 0; from < this.nodeCount; from++)
      for (let e = this.firstEdge[from]!; e < this.firstEdge[from + 1]!; e += this.ef) {
        const target = edges[e + to]! / this.nf
        this.retainers[fill[target]!++] = from
        this.retainers[fill[target]!++] = e
      }
  }
}

/** Containers and V8's internals: skipped when naming who retains an object. */
const GENERIC =
  /^(Array|Object|Map|Set|TreeNode|Uint8Array|ArrayBuffer|WeakMap|\((array|string|hidden|object shape|closure|code|internal|concatenated string|sliced string)\).*|system \/ .*)$/

function load(file: string): Heap {
  return new Heap(JSON.parse(readFileSync(file, 'utf8')) as Snapshot)
}

const [freshFile, agedFile] = positionals
if (!freshFile || !agedFile) {
  console.error('usage: npx tsx bench/heap-diff.ts FRESH.heapsnapshot AGED.heapsnapshot')
  process.exit(2)
}
const fresh = load(freshFile).byKey()
const agedHeap = load(agedFile)
const aged = agedHeap.byKey()
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(2)
const rows = [...aged].map(([key, a]) => {
  const f = fresh.get(key) ?? { count: 0, size: 0 }
  return { key, grew: a.size - f.size, count: a.count - f.count, aged: a.size, nodes: a.nodes }
})
rows.sort((x, y) => y.grew - x.grew)
const total = (m: typeof aged) => [...m.values()].reduce((sum, e) => sum + e.size, 0)
console.log(`self size: fresh ${mb(total(fresh))} MB, aged ${mb(total(aged))} MB\n`)
console.log('| constructor | grew MB | more instances | aged MB |\n|---|---|---|---|')
for (const row of rows.slice(0, Number(args.top)))
  console.log(`| ${row.key} | ${mb(row.grew)} | ${row.count} | ${mb(row.aged)} |`)

const levels = Number(args.levels)
const freshOwners = load(freshFile).byOwner(levels)
const agedOwners = agedHeap.byOwner(levels)
const owners = [...agedOwners].map(([label, size]) => ({ label, size, grew: size - (freshOwners.get(label) ?? 0) }))
owners.sort((x, y) => y.grew - x.grew)
console.log(`\n| owner (first retainers, ${levels} named levels) | grew MB | aged MB |\n|---|---|---|`)
for (const o of owners.slice(0, Number(args.top))) console.log(`| ${o.label} | ${mb(o.grew)} | ${mb(o.size)} |`)

for (const row of rows.slice(0, Number(args.paths))) {
  const paths = new Map<string, number>()
  const step = Math.max(1, Math.floor(row.nodes.length / Number(args.sample)))
  for (let n = 0; n < row.nodes.length; n += step) {
    let node = row.nodes[n]!
    const path: string[] = []
    // only named owners are kept (a class's instance and the field holding the rest): the arrays, plain
    // objects, strings and tree nodes between them are how a collection is built, not who keeps it
    for (let steps = 0; path.length < Number(args.depth) && steps < 100_000; steps++) {
      const up = agedHeap.retainer(node)
      if (!up) break
      node = up.node
      const owner = agedHeap.key(node)
      if (GENERIC.test(owner)) continue
      const step = `${owner}.${up.edge.replace(/^\d+$/, '[]')}`
      if (path.at(-1) !== step) path.push(step)
    }
    const text = path.join(' <- ')
    paths.set(text, (paths.get(text) ?? 0) + 1)
  }
  console.log(`\n${row.key} (+${mb(row.grew)} MB), retained by (of ${Math.ceil(row.nodes.length / step)} sampled):`)
  for (const [text, n] of [...paths].sort((x, y) => y[1] - x[1]).slice(0, 5)) console.log(`  ${n}× ${text}`)
}
