/**
 * The files the server reads at run time (the docs page, the live page, the OpenRPC documents), located from
 * this module: it is src/assets.ts in the sources and dist/src/assets.js in the build, and the built CLI is one
 * bundled file at dist/src/cli.js (scripts/build.js), the same depth, so one relative path holds in every layout.
 */

/** `path` from the package's root: `generated/docs/index.html`, `src/server/live/live.js`. */
export function assetUrl(path: string): URL {
  return new URL(`../${path}`, import.meta.url)
}
