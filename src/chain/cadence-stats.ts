/**
 * Cadence figures of the sequencer for the benchmark and for operators: how late each tick fired
 * against its due time (timer jitter), how long each flashblock took to build, and how many were
 * published after their interval had already passed. Keeps the last CADENCE_SAMPLES of each.
 */
import type { CadenceSummary, Percentiles } from '../capabilities/backend-status.js'
import { CADENCE_SAMPLES } from '../limits.js'

export class CadenceStats {
  private readonly jitter: number[] = []
  private readonly build: number[] = []
  private ticks = 0
  private flashblocks = 0
  private late = 0
  lateThresholdMs = Infinity

  recordTick(jitterMs: number): void {
    this.ticks++
    push(this.jitter, jitterMs)
  }

  recordBuild(buildMs: number, sinceDueMs: number): void {
    this.flashblocks++
    if (sinceDueMs > this.lateThresholdMs) this.late++
    push(this.build, buildMs)
  }

  summary(): CadenceSummary {
    return {
      ticks: this.ticks,
      flashblocks: this.flashblocks,
      late: this.late,
      tickJitterMs: percentiles(this.jitter),
      buildMs: percentiles(this.build),
    }
  }
}

function push(samples: number[], value: number): void {
  if (samples.length >= CADENCE_SAMPLES) samples.shift()
  samples.push(value)
}

function percentiles(samples: number[]): Percentiles {
  if (samples.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0 }
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))])
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted[sorted.length - 1]) }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}
