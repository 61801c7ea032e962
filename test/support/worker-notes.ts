/**
 * The lines a test worker writes on stderr when it ends in the middle of a run (worker-watch.ts), and how
 * the CI summary (scripts/ci-summary.ts) finds them again in the run's output.
 */
export const workerNote = (text: string) => `test worker ${process.pid}: ${text}`

export const WORKER_NOTE = /^test worker \d+: /
