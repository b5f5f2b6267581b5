/**
 * Frames that compiled a shader program while drawing (issue 16: nothing should compile on the main
 * thread in a frame that also draws; report any that do). The app counts three.js's programs
 * before and after its render call: programs compiled off the frame (`compileAsync`, between
 * frames) are not counted, programs the render call had to compile are. Pure: it is given the
 * program lists.
 */
export interface FrameCompiles {
  /** Frames whose render compiled at least one program. */
  frames: number;
  /** Programs compiled inside render calls. */
  programs: number;
  /** Names of the programs compiled in frames (three's program names: the material's), latest last, at most 16. */
  names: string[];
}

export class FrameCompileWatch {
  readonly report: FrameCompiles = { frames: 0, programs: 0, names: [] };
  /** Reused every frame: no allocation on the frame path. */
  private readonly before = new Set<unknown>();

  /** Before the frame's render call: the programs that exist. */
  beforeRender(programs: readonly unknown[] | undefined): void {
    this.before.clear();
    for (const p of programs ?? []) this.before.add(p);
  }

  /** After it: those that did not exist before were compiled by this frame. */
  afterRender(programs: readonly { name?: string }[] | undefined): void {
    let added = 0;
    for (const p of programs ?? []) {
      if (this.before.has(p)) continue;
      added++;
      this.report.names.push(p.name || 'unnamed');
      if (this.report.names.length > 16) this.report.names.shift();
    }
    if (added === 0) return;
    this.report.frames++;
    this.report.programs += added;
  }
}
