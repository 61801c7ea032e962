#!/usr/bin/env node
// `npx preconf-rpc`: the compiled CLI (src/cli.ts stays free of a shebang and of packaging concerns).
import { existsSync } from 'node:fs'

const cli = new URL('../dist/src/cli.js', import.meta.url)
if (!existsSync(cli)) {
  // only in a clone: the published package always holds dist/
  process.stderr.write(
    'preconf-rpc: dist/ is missing; run `npm run build` first (or `npm start` to run from the sources)\n',
  )
  process.exit(1)
}
await import(cli.href)
