/**
 * What one interpreted call wrote and warmed, undoable back to a mark (a child frame's start). Slot values
 * are words in one growing Uint32Array of the call's (eight limbs each, as the stack holds them: a value is
 * copied, never allocated), a slot holds the offsets of its values, and the undo log is two parallel arrays
 * of (object, what to restore). A write to a slot whose value was made since the innermost open mark
 * overwrites it in place: no revert can need the value it replaces, so a loop writing one slot neither grows
 * the words nor the log. It also keeps which accounts EIP-161 saw touched, undone the same way, for a frame
 * whose writes are applied to a state after (eth_simulateV1's, frame-writes.ts).
 */

/** A storage or transient slot as the call sees it: its values as offsets into the journal's words. */
export class Slot {
  warm = false
  /** The committed value (EIP-2200's original), -1 until read; transient slots have none. */
  original = -1
  /** The call's own value, -1 while it wrote none (transient storage then reads zero). */
  current = -1
}

/** Something EIP-2929 warms: an account or a slot. */
interface Warmable {
  warm: boolean
}

/** An account EIP-161 can touch (host.ts's Touched). */
interface Touchable extends Warmable {
  eip161: boolean
}

const UNWARM = -2
const UNTOUCH = -3
const FIRST_WORDS = 8 * 256
/** Word arrays kept for the next calls, and the largest kept (in limbs). */
const KEPT = 8
const KEPT_LIMBS = 8 * 8192
const free: Uint32Array[] = []

export class Journal {
  /** The values (8 limbs each); a new array when it grows, so read it after `alloc`. */
  words: Uint32Array = free.pop() ?? new Uint32Array(FIRST_WORDS)
  private top = 0
  private readonly objects: Warmable[] = []
  private readonly previous: number[] = []
  /** `top` at each open mark but the innermost, whose is `floor`. */
  private readonly floors: number[] = []
  private floor = 0

  /** Gives the words back for another call (after the call's result is read). */
  release(): void {
    if (free.length < KEPT && this.words.length <= KEPT_LIMBS) free.push(this.words)
  }

  /** The offset of a new value's 8 limbs. */
  alloc(): number {
    if (this.top === this.words.length) {
      const grown = new Uint32Array(this.words.length * 2)
      grown.set(this.words)
      this.words = grown
    }
    const at = this.top
    this.top += 8
    return at
  }

  /** A new value holding `length` big-endian bytes of `bytes` (a state read's minimal encoding). */
  fromBytes(bytes: Uint8Array): number {
    const at = this.alloc()
    const words = this.words
    words.fill(0, at, at + 8)
    for (let k = 0; k < bytes.length; k++) {
      const pos = bytes.length - 1 - k
      words[at + (pos >>> 2)] |= bytes[k]! << ((pos & 3) * 8)
    }
    return at
  }

  /** Opens a mark (a child frame starts): what `revert` or `keep` takes. */
  mark(): number {
    this.floors.push(this.floor)
    this.floor = this.top
    return this.objects.length
  }

  /** Closes the innermost mark, keeping what was done since (the child returned). */
  keep(): void {
    this.floor = this.floors.pop()!
  }

  /** Closes the innermost mark, `mark`, undoing every write and warming since. */
  revert(mark: number): void {
    const { objects, previous } = this
    for (let i = objects.length - 1; i >= mark; i--) {
      const prev = previous[i]!
      if (prev === UNWARM) objects[i]!.warm = false
      else if (prev === UNTOUCH) (objects[i] as Touchable).eip161 = false
      else (objects[i] as Slot).current = prev
    }
    objects.length = mark
    previous.length = mark
    this.floor = this.floors.pop()!
  }

  /** Warms `o`; whether it was cold. */
  warm(o: Warmable): boolean {
    if (o.warm) return false
    o.warm = true
    this.objects.push(o)
    this.previous.push(UNWARM)
    return true
  }

  /**
   * Marks `a` touched as EIP-161 counts it (a frame's value transfer, zero included, touches its caller and
   * recipient); `lasting`: no revert undoes it, @ethereumjs's exception for RIPEMD-160's address.
   */
  touch(a: Touchable, lasting: boolean): void {
    if (a.eip161) return
    a.eip161 = true
    if (lasting) return
    this.objects.push(a)
    this.previous.push(UNTOUCH)
  }

  /** Makes the word at `at` of `s` the slot's value. */
  write(slot: Slot, s: Uint32Array, at: number): void {
    let to = slot.current
    if (to < this.floor) {
      this.objects.push(slot)
      this.previous.push(to)
      to = this.alloc()
      slot.current = to
    }
    const words = this.words
    for (let i = 0; i < 8; i++) words[to + i] = s[at + i]!
  }

  /** Copies the value at `from` onto the word at `at` of `s`. */
  load(from: number, s: Uint32Array, at: number): void {
    const words = this.words
    for (let i = 0; i < 8; i++) s[at + i] = words[from + i]!
  }

  isZero(v: number): boolean {
    const w = this.words
    return (w[v]! | w[v + 1]! | w[v + 2]! | w[v + 3]! | w[v + 4]! | w[v + 5]! | w[v + 6]! | w[v + 7]!) === 0
  }

  /** Whether the values at `a` and `b` are equal. */
  same(a: number, b: number): boolean {
    const w = this.words
    for (let i = 0; i < 8; i++) if (w[a + i] !== w[b + i]) return false
    return true
  }

  /** Whether the value at `v` equals the word at `at` of `s`. */
  equals(v: number, s: Uint32Array, at: number): boolean {
    const w = this.words
    for (let i = 0; i < 8; i++) if (w[v + i] !== s[at + i]) return false
    return true
  }
}
