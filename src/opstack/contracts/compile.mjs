// Compiles the OP Stack predeploys written in this repo into predeploys.json (ABI + runtime code), with the
// solc-js devDependency:  node src/opstack/contracts/compile.mjs
// src/opstack/predeploys.test.ts recompiles and fails if the committed JSON is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const solc = createRequire(import.meta.url)('solc')
const here = new URL('.', import.meta.url)
const FILES = ['L1Block.sol', 'GasPriceOracle.sol', 'FeeVault.sol', 'GaslessWhitelist.sol']

export function compile() {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(FILES.map((f) => [f, { content: readFileSync(new URL(f, here), 'utf8') }])),
    settings: {
      evmVersion: 'prague',
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contracts = {}
  for (const file of FILES) {
    for (const [name, c] of Object.entries(out.contracts[file])) {
      if (c.evm.deployedBytecode.object === '') continue // interfaces
      contracts[name] = { abi: c.abi, runtime: `0x${c.evm.deployedBytecode.object}` }
    }
  }
  return `${JSON.stringify({ compiler: `solc ${solc.version()}`, contracts }, null, 2)}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('predeploys.json', here), compile())
  console.log('wrote src/opstack/contracts/predeploys.json')
}
