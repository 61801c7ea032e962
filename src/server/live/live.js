/**
 * The live page's script (a browser module, served as is: no build step, nothing from outside the node).
 * It listens to the node's raw flashblocks feed (/ws/flashblocks) for the block being built, and to
 * eth_subscribe on / for sealed heads and admitted transactions; /metrics.json gives the feed's clients.
 * Everything it shows is measured here: latency is admission notice -> the transaction's receipt in a
 * flashblock; jitter is each arrival gap's distance from the median gap, over the last minute.
 */
const WINDOW_MS = 60_000
const RECENT_BLOCKS = 12
const RECONNECT_MS = 1_000

const $ = (id) => document.getElementById(id)
const origin = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`

/** The block being built: its number and, per flashblock index, the transactions it added. */
let building = { number: undefined, payloadId: undefined, slots: [], gasUsed: 0n, hash: '' }
/** Flashblocks of blocks not yet announced by newHeads, by number (the feed runs ahead of the heads). */
const built = new Map()
const arrivals = [] // ms of each flashblock's arrival
const admitted = new Map() // tx hash -> ms of its newPendingTransactions notice
const latencies = [] // { at, ms }
const recent = []
/** The newest sealed block the page knows of (eth_blockNumber at open, then newHeads). */
let head
const open = { feed: false, rpc: false }

function setStatus() {
  const live = open.feed && open.rpc
  $('status').dataset.state = live ? 'live' : 'reconnecting'
  $('status').textContent = live ? 'live' : 'reconnecting'
  document.body.dataset.ready = String(live)
}

function connect(path, name, onOpen, onMessage) {
  const socket = new WebSocket(`${origin}${path}`)
  socket.onopen = () => {
    open[name] = true
    setStatus()
    onOpen(socket)
  }
  socket.onmessage = (event) => onMessage(JSON.parse(event.data), socket)
  socket.onclose = () => {
    open[name] = false
    setStatus()
    setTimeout(() => connect(path, name, onOpen, onMessage), RECONNECT_MS)
  }
}

// the raw feed: one message per flashblock (X Layer's end-of-block messages carry no diff)
function onFlashblock(message) {
  if (!message.diff) return
  const now = performance.now()
  arrivals.push(now)
  const number = message.metadata.block_number
  // the heads and the feed are two sockets: on a busy machine a flashblock may come after its block's newHeads.
  // That is the same build (its payload id, or the page saw none of the block's flashblocks), not a reorg.
  const sealed = head !== undefined && number <= head ? recent.find((block) => block.number === number) : undefined
  if (sealed && (sealed.payloadId === undefined || sealed.payloadId === message.payload_id)) {
    sealed.payloadId = message.payload_id
    sealed.slots[message.index] = message.diff.transactions.length
    renderRecent()
    return
  }
  if (message.index === 0 || building.number !== number) {
    building = { number, payloadId: message.payload_id, slots: [], gasUsed: 0n, hash: '' }
    built.set(number, building)
  }
  // a block started again (a new payload) at a height the page showed sealed
  if (message.index === 0 && head !== undefined && number <= head) onReorg(number)
  building.slots[message.index] = message.diff.transactions.length
  building.gasUsed = BigInt(message.diff.gas_used)
  for (const hash of Object.keys(message.metadata.receipts ?? {})) {
    const at = admitted.get(hash)
    if (at === undefined) continue // a deposit, or sent before the page opened
    admitted.delete(hash)
    latencies.push({ at: now, ms: now - at })
  }
  renderBuilding(message.index)
}

function renderBuilding(newest) {
  $('pending-block').textContent = String(building.number)
  $('filling-number').textContent = String(building.number)
  $('pending-index').textContent = String(newest)
  const total = building.slots.reduce((sum, n) => sum + (n ?? 0), 0)
  $('pending-txs').textContent = String(total)
  $('pending-gas').textContent = building.gasUsed.toLocaleString('en')
  const peak = Math.max(1, ...building.slots.map((n) => n ?? 0))
  // Array.from, not map: a page opened mid-block never saw the block's first flashblocks, and map skips
  // those holes (they would reach replaceChildren as `undefined`, drawn as text)
  const slots = Array.from(building.slots, (count, index) => {
    const slot = document.createElement('div')
    slot.className = `slot${index === newest ? ' newest' : ''}${count === undefined ? ' missed' : ''}`
    slot.dataset.index = String(index)
    if (count !== undefined) slot.dataset.count = String(count)
    else slot.title = 'published before this page opened'
    const label = document.createElement('span')
    label.className = 'count'
    label.textContent = count === undefined ? '–' : String(count)
    const bar = document.createElement('div')
    bar.className = 'bar'
    bar.style.height = `${((count ?? 0) / peak) * 80}%`
    const name = document.createElement('span')
    name.className = 'index'
    name.textContent = `#${index}`
    slot.append(label, bar, name)
    return slot
  })
  $('filling').replaceChildren(...slots)
}

// eth_subscribe on /: sealed heads and admitted transactions
const pendingCalls = new Map()
let nextId = 1
function call(socket, method, params) {
  const id = nextId++
  socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
  return new Promise((resolve) => pendingCalls.set(id, resolve))
}
const subscriptions = new Map() // subscription id -> handler

async function onRpcOpen(socket) {
  $('chain').textContent = `chain id ${Number(await call(socket, 'eth_chainId', []))}`
  subscriptions.set(await call(socket, 'eth_subscribe', ['newHeads']), onHead)
  // the head the page opens on: newHeads tells only of the blocks sealed after it
  const latest = Number(await call(socket, 'eth_blockNumber', []))
  if (head === undefined || latest > head) showHead(latest)
  subscriptions.set(await call(socket, 'eth_subscribe', ['newPendingTransactions']), (hash) =>
    admitted.set(hash, performance.now()),
  )
}

function onRpcMessage(message) {
  if (message.id !== undefined) {
    pendingCalls.get(message.id)?.(message.result)
    pendingCalls.delete(message.id)
  } else if (message.method === 'eth_subscription')
    subscriptions.get(message.params.subscription)?.(message.params.result)
}

function showHead(number) {
  head = number
  $('head').textContent = String(number)
}

/**
 * Block `number` started or sealed again while the page showed it sealed: the chain went back (evm_revert,
 * anvil_reset, a follower's upstream reorg) and builds on `number - 1`; what the page showed above it is gone.
 */
function onReorg(number) {
  showHead(number - 1)
  const kept = recent.filter((block) => block.number < number)
  recent.splice(0, recent.length, ...kept)
  renderRecent()
}

function onHead(header) {
  const number = Number(header.number)
  // a block sealed again at a height the page showed: what it showed from there on is gone
  if (recent.length && number <= recent[0].number) onReorg(number)
  showHead(number)
  const flashblocks = built.get(number)
  for (const key of built.keys()) if (key <= number) built.delete(key)
  recent.unshift({
    number,
    payloadId: flashblocks?.payloadId,
    hash: header.hash,
    gasUsed: BigInt(header.gasUsed),
    slots: flashblocks?.slots ?? [],
  })
  recent.length = Math.min(recent.length, RECENT_BLOCKS)
  renderRecent()
}

function renderRecent() {
  const rows = recent.map((block) => {
    const row = document.createElement('tr')
    const txs = block.slots.reduce((sum, n) => sum + (n ?? 0), 0)
    const mini = document.createElement('span')
    mini.className = 'mini'
    const peak = Math.max(1, ...block.slots.map((n) => n ?? 0))
    for (const count of block.slots) {
      const bar = document.createElement('span')
      bar.style.height = `${((count ?? 0) / peak) * 100}%`
      mini.append(bar)
    }
    const cells = [
      String(block.number),
      block.slots.length ? String(txs) : '–',
      block.slots.length ? String(block.slots.length) : '–',
      block.gasUsed.toLocaleString('en'),
      mini,
      `${block.hash.slice(0, 10)}…${block.hash.slice(-6)}`,
    ]
    for (const content of cells) {
      const cell = document.createElement('td')
      cell.append(content)
      row.append(cell)
    }
    row.lastChild.className = 'hash'
    return row
  })
  $('recent').replaceChildren(...rows)
}

// the last minute's figures, redrawn twice a second
function quantile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : undefined
}
const ms = (value) => (value === undefined ? '–' : `${value.toFixed(value < 10 ? 1 : 0)} ms`)

function polyline(svg, values) {
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline')
  const peak = Math.max(1, ...values)
  const step = values.length > 1 ? 300 / (values.length - 1) : 0
  line.setAttribute(
    'points',
    values.map((v, i) => `${(i * step).toFixed(1)},${(58 - (v / peak) * 54).toFixed(1)}`).join(' '),
  )
  svg.replaceChildren(line)
}

function renderFigures() {
  const since = performance.now() - WINDOW_MS
  while (arrivals.length && arrivals[0] < since) arrivals.shift()
  while (latencies.length && latencies[0].at < since) latencies.shift()
  for (const [hash, at] of admitted) if (at < since) admitted.delete(hash)

  const lat = latencies.map((l) => l.ms)
  const sortedLat = [...lat].sort((a, b) => a - b)
  $('latency-count').textContent = String(lat.length)
  $('latency-p50').textContent = ms(quantile(sortedLat, 0.5))
  $('latency-p90').textContent = ms(quantile(sortedLat, 0.9))
  $('latency-max').textContent = ms(sortedLat.at(-1))
  polyline($('latency-chart'), lat)

  const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i])
  const median = quantile(
    [...gaps].sort((a, b) => a - b),
    0.5,
  )
  const jitter = gaps.map((gap) => Math.abs(gap - median)).sort((a, b) => a - b)
  $('gap-median').textContent = ms(median)
  $('jitter-p50').textContent = ms(quantile(jitter, 0.5))
  $('jitter-p99').textContent = ms(quantile(jitter, 0.99))
  $('jitter-max').textContent = ms(jitter.at(-1))
  polyline($('gap-chart'), gaps)
  const recentArrivals = arrivals.filter((at) => at > performance.now() - 5_000).length
  $('rate').textContent = (recentArrivals / 5).toFixed(1)
}

async function pollCounts() {
  try {
    const metrics = await (await fetch('/metrics.json')).json()
    $('feed-clients').textContent = String(metrics.feedClients)
    $('subscriptions').textContent = String(metrics.subscriptions)
  } catch {
    // the node is restarting: the sockets' reconnects show it
  }
}

connect('/ws/flashblocks', 'feed', () => {}, onFlashblock)
connect('/', 'rpc', onRpcOpen, onRpcMessage)
setInterval(renderFigures, 500)
setInterval(pollCounts, 2_000)
pollCounts()
