/**
 * What a running Node process really holds: RSS and heap before and after a forced full GC. A growing RSS is
 * not a leak when the live heap after a full collection stays put: V8 sizes its heap to the allocation
 * rate and returns pages lazily. SIGUSR1 makes Node open its inspector on 127.0.0.1:9229 (no restart, no
 * flag); this script asks it for HeapProfiler.collectGarbage, reads process.memoryUsage() around it and
 * closes the inspector again. Port 9229 must be free (or the port the process was started with
 * `--inspect-port`: pass it). The process pauses for the collection (~0.1-1 s). profileWhile() takes a
 * process's V8 profile and GC pauses over a window (bench/aging.ts --profile).
 *
 *   npx tsx bench/live-heap.ts PID [PORT]     (or liveHeap(pid, port) from another bench)
 */
import WebSocket from 'ws'

/** RSS and heap of process `pid` before and after a forced full GC, in MB. */
export function liveHeap(pid: number, port = 9229): Promise<{ before: Memory; after: Memory }> {
  return withInspector(pid, port, async (send) => {
    const memory = async (): Promise<Memory> => {
      // newSpace: the young generation's size, which V8 grows under a high allocation rate and keeps
      const expression = `JSON.stringify({ ...process.memoryUsage(), newSpace: process.getBuiltinModule('v8')
        .getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size })`
      const usage = JSON.parse(await evaluate(send, expression)) as Record<keyof Memory, number>
      return Object.fromEntries(
        Object.entries(usage).map(([k, v]) => [k, Math.round(v / 2 ** 20)]),
      ) as unknown as Memory
    }
    const before = await memory()
    await send('HeapProfiler.collectGarbage')
    const after = await memory()
    return { before, after }
  })
}

/**
 * Process `pid` writes a heap snapshot to `file` (v8.writeHeapSnapshot, which collects garbage first: only
 * what is live is in it); bench/heap-diff.ts compares two. The process pauses for it (seconds per 100 MB).
 */
export function writeHeapSnapshot(pid: number, port: number, file: string): Promise<void> {
  return withInspector(pid, port, async (send) => {
    await evaluate(send, `process.getBuiltinModule('v8').writeHeapSnapshot(${JSON.stringify(file)})`)
  })
}

/** What process `pid` did while `during` ran: its main thread's V8 profile and its GC pauses by kind (ms, count). */
export async function profileWhile<T>(
  pid: number,
  port: number,
  during: () => Promise<T>,
): Promise<{ result: T; profile: object; gc: Record<string, { ms: number; count: number }> }> {
  return withInspector(pid, port, async (send) => {
    // PerformanceObserver's gc entries: the main thread's pauses (minor, major, incremental, weak callbacks)
    await evaluate(
      send,
      `(() => { const { PerformanceObserver } = process.getBuiltinModule('perf_hooks'); const gc = {};
        const kinds = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
        globalThis.__gcObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) {
          const k = kinds[e.detail?.kind ?? e.kind] ?? 'other'; gc[k] ??= { ms: 0, count: 0 };
          gc[k].ms += e.duration; gc[k].count++ } });
        globalThis.__gcObserver.observe({ entryTypes: ['gc'] }); globalThis.__gc = gc; return '' })()`,
    )
    await send('Profiler.enable')
    await send('Profiler.setSamplingInterval', { interval: 100 })
    await send('Profiler.start')
    const result = await during()
    const { profile } = (await send('Profiler.stop')) as { profile: object }
    // the observer delivers its entries on a later tick
    await new Promise((r) => setTimeout(r, 100))
    const gc = JSON.parse(
      await evaluate(send, 'globalThis.__gcObserver.disconnect(), JSON.stringify(globalThis.__gc)'),
    ) as Record<string, { ms: number; count: number }>
    return { result, profile, gc }
  })
}

export type Send = (method: string, params?: object) => Promise<unknown>

async function evaluate(send: Send, expression: string): Promise<string> {
  const reply = (await send('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value: string } }
  return reply.result.value
}

/** Opens process `pid`'s inspector (SIGUSR1), runs `use` over it, and closes the inspector again. */
export async function withInspector<T>(pid: number, port: number, use: (send: Send) => Promise<T>): Promise<T> {
  process.kill(pid, 'SIGUSR1')
  let targets: { webSocketDebuggerUrl: string }[] = []
  for (let attempt = 0; targets.length === 0; attempt++) {
    await new Promise((r) => setTimeout(r, 200))
    targets = await fetch(`http://127.0.0.1:${port}/json/list`)
      .then((r) => r.json() as Promise<typeof targets>)
      .catch(() => [])
    if (attempt === 50) throw new Error(`process ${pid} opened no inspector on 127.0.0.1:${port} within 10 s`)
  }
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let nextId = 0
  const waiting = new Map<number, (result: unknown) => void>()
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { id?: number; result?: unknown }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
  })
  const send: Send = (method, params = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId
      waiting.set(id, resolve)
      socket.send(JSON.stringify({ id, method, params }))
    })
  try {
    return await use(send)
  } finally {
    const close = {
      id: ++nextId,
      method: 'Runtime.evaluate',
      params: { expression: "process.getBuiltinModule('inspector').close()" },
    }
    socket.send(JSON.stringify(close))
    await new Promise((r) => setTimeout(r, 300))
    socket.close()
  }
}

interface Memory {
  newSpace: number
  rss: number
  heapTotal: number
  heapUsed: number
  external: number
  arrayBuffers: number
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pid = Number(process.argv[2])
  if (!Number.isInteger(pid)) {
    console.error('usage: npx tsx bench/live-heap.ts PID [PORT]')
    process.exit(2)
  }
  const { before, after } = await liveHeap(pid, process.argv[3] ? Number(process.argv[3]) : undefined)
  console.log('MB before', before)
  console.log('MB after a full GC', after)
}
