/**
 * The planet's cross-fades (src/render/pieceFades.ts): a commit fades the old set out and the new
 * one in with complementary phases (every pixel drawn by exactly one of them), a later commit
 * first finishes the running fade, a piece disposed while fading out keeps its mesh until the
 * end, and with fades off (an edit waiting to be drawn) pieces show and hide at once.
 */
import { describe, expect, it } from 'vitest';
import { PieceFades } from '../../src/render/pieceFades';

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A 0.4 s fade with one commit started: `a` (was drawn) fading out, `b` fading in. */
function commitStarted(): { c: ReturnType<typeof clock>; fades: PieceFades; a: { visible: boolean }; b: { visible: boolean } } {
  const c = clock();
  const fades = new PieceFades(0.4, c.now);
  const a = { visible: true }, b = { visible: false };
  fades.tick();
  fades.hide(a);
  fades.show(b);
  return { c, fades, a, b };
}

/** The dither covers a pixel of threshold q (0..1) when q < fade (or 1 − q < fade, flipped): sr_dither.glsl. */
function covers(state: { fade: number; complement: boolean }, q: number): boolean {
  if (state.fade >= 1) return true;
  return (state.complement ? 1 - q : q) < state.fade;
}

describe('PieceFades', () => {
  it('cross-fades a commit: both drawn, complementary at every phase, the old one hidden at the end', () => {
    const c = clock();
    const fades = new PieceFades(0.4, c.now);
    const old = { visible: true };
    const next = { visible: false };
    fades.tick();
    fades.hide(old);
    fades.show(next);
    expect(old.visible).toBe(true);
    expect(next.visible).toBe(true);
    for (let ms = 0; ms < 400; ms += 50) {
      fades.tick();
      const a = fades.stateOf(old), b = fades.stateOf(next);
      expect(a.complement).toBe(true);
      expect(b.complement).toBe(false);
      // The 16 Bayer thresholds: each pixel is drawn by exactly one of the two.
      for (let rank = 0; rank < 16; rank++) {
        const q = (rank + 0.5) / 16;
        expect(Number(covers(a, q)) + Number(covers(b, q)), `phase ${fades.phase}, threshold ${q}`).toBe(1);
      }
      c.advance(50);
    }
    fades.tick();
    expect(fades.active).toBe(false);
    expect(old.visible).toBe(false);
    expect(next.visible).toBe(true);
    expect(fades.stateOf(next)).toEqual({ fade: 1, complement: false });
  });

  it('a second commit mid-fade finishes the first: the oldest set gone, one phase for all', () => {
    const { c, fades, a, b } = commitStarted();
    const d = { visible: false };
    fades.tick();
    c.advance(100);
    fades.tick(); // a later frame
    expect(fades.phase).toBeCloseTo(0.25, 6);
    fades.hide(b);
    fades.show(d);
    expect(a.visible).toBe(false);
    expect(fades.stateOf(b)).toEqual({ fade: 1, complement: true });
    expect(fades.stateOf(d)).toEqual({ fade: 0, complement: false });
  });

  it('keeps a fading-out mesh until its fade ends, then releases it', () => {
    const { c, fades, a, b } = commitStarted();
    let released = 0;
    fades.dispose(a, () => released++);
    expect(released).toBe(0);
    c.advance(500);
    fades.tick();
    expect(released).toBe(1);
    // A mesh not fading is released at once.
    fades.dispose(b, () => released++);
    expect(released).toBe(2);
  });

  it('shown again while fading out: whole at once; hidden while fading in: gone at once', () => {
    const { fades, a, b } = commitStarted();
    fades.show(a);
    fades.hide(b);
    expect(fades.stateOf(a)).toEqual({ fade: 1, complement: false });
    expect(a.visible).toBe(true);
    expect(b.visible).toBe(false);
    expect(fades.active).toBe(false);
  });

  it('an edit during a fade (fades off) ends the fade first: nothing from before the edit stays drawn', () => {
    const { c, fades, a, b } = commitStarted();
    const edited = { visible: false };
    fades.tick();
    c.advance(100);
    fades.enabled = false;
    fades.hide(b);
    fades.show(edited);
    expect(a.visible).toBe(false);
    expect(b.visible).toBe(false);
    expect(edited.visible).toBe(true);
    expect(fades.active).toBe(false);
  });

  it('disabled: shows and hides at once', () => {
    const fades = new PieceFades(0.4, () => 0);
    fades.enabled = false;
    const a = { visible: true }, b = { visible: false };
    fades.hide(a);
    fades.show(b);
    expect(a.visible).toBe(false);
    expect(b.visible).toBe(true);
    expect(fades.active).toBe(false);
  });
});
