import { readFileSync } from 'node:fs'
const s = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const nf = s.snapshot.meta.node_fields.length, ef = s.snapshot.meta.edge_fields.length
const types = s.snapshot.meta.node_types[0], etypes = s.snapshot.meta.edge_types[0]
const N = s.nodes.length / nf
const first = new Uint32Array(N + 1)
for (let i = 0; i < N; i++) first[i + 1] = first[i] + s.nodes[i * nf + 4] * ef
const name = (i) => s.strings[s.nodes[i * nf + 1]], type = (i) => types[s.nodes[i * nf]], size = (i) => s.nodes[i*nf+3]
const edges = (i) => { const out = []; for (let e = first[i]; e < first[i + 1]; e += ef) out.push({ type: etypes[s.edges[e]], name: etypes[s.edges[e]] === 'element' || etypes[s.edges[e]] === 'hidden' ? s.edges[e+1] : s.strings[s.edges[e + 1]], to: s.edges[e + 2] / nf }); return out }
const child = (i, n) => edges(i).find((e) => e.name === n)?.to
// find StateCache objects
for (let i = 0; i < N; i++) if (type(i) === 'object' && name(i) === 'StateCache') {
  const storage = child(i, 'storage'); const order = child(storage, 'order'); const map = child(storage, 'map')
  const elems = child(order, 'elements')
  const strs = edges(elems).map((e) => e.to).filter((t) => type(t).includes('string'))
  // total size of string graph reachable from each key (cons parts) 
  let total = 0, consNodes = 0; const seen = new Set()
  const walk = (n) => { if (seen.has(n)) return; seen.add(n); total += size(n); if (type(n) === 'concatenated string' || type(n)==='sliced string') { consNodes++; for (const e of edges(n)) if (e.name === 'first' || e.name === 'second' || e.name === 'parent') walk(e.to) } }
  for (const k of strs) walk(k)
  console.log('StateCache.storage keys', strs.length, 'string bytes', total, 'per key', (total / strs.length).toFixed(0), 'cons nodes per key', (consNodes / strs.length).toFixed(1), 'key types', [...new Set(strs.slice(0,100).map(type))])
  console.log('sample', name(strs[0]).slice(0,140), type(strs[0]))
}
for (let i = 0; i < N; i++) if (type(i) === 'object' && name(i) === 'MemoryNodes') {
  const table = child(i, 'table')
  const kids = edges(table).map((e) => e.to)
  const strs = kids.filter((t) => type(t).includes('string'))
  let total = 0, cons = 0; const seen = new Set()
  const walk = (n) => { if (seen.has(n)) return; seen.add(n); total += size(n); if (type(n) === 'concatenated string' || type(n)==='sliced string') { cons++; for (const e of edges(n)) if (e.name === 'first' || e.name === 'second' || e.name === 'parent') walk(e.to) } }
  for (const k of strs) walk(k)
  let vals = 0; for (const k of kids.filter((t) => name(t) === 'Uint8Array')) { vals += size(k); for (const e of edges(k)) if (e.name === 'buffer') { vals += size(e.to); for (const f of edges(e.to)) if (f.name === 'backing_store') vals += size(f.to) } }
  console.log('MemoryNodes entries', strs.length, 'key bytes/entry', (total/strs.length).toFixed(0), 'cons per key', (cons/strs.length).toFixed(1), 'types', [...new Set(strs.slice(0,50).map(type))], 'value bytes/entry', (vals/strs.length).toFixed(0), 'table', size(table))
}
