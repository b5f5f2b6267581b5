/**
 * Per-chunk values of the sampling passes as one std140 uniform block, so one draw samples a whole
 * batch of chunks (issue 15). Pure string and byte work: runs in Node tests, workers and pages.
 *
 * The field (`sr_band`) and the chunk mapping (`sr_chunkOriginM`, the cube-sphere's `sr_cs*`) are
 * written as if one chunk were drawn: plain `uniform` declarations. {@link chunkBlockProgram} turns
 * each such declaration (other than the pass-wide ones and samplers) into a global of the same name
 * and type, and emits `sr_chunk_block`: a struct of those members, `uniform SrChunks { SrChunk
 * sr_chunks[SLOTS]; }`, and `sr_loadChunk(slot)`, which copies slot `slot` into the globals. A pass
 * calls it first, with the slot from its fragment's row (grid pass) or its edge's attribute (edge
 * pass); the field and mapping code stay as they are. {@link packChunkBlock} writes the block's
 * bytes from each job's values by name.
 *
 * Why a uniform block, not a data texture: texelFetch in the edge pass's transform-feedback vertex
 * shader lost the WebGL context on SwiftShader (docs/lod.md); a block reads the same in every stage.
 *
 * Measured before (H200, one draw per chunk in a batch): 1.1 ms of GPU a chunk for the grid pass and
 * 3.4 ms for the edge pass, the same as one chunk per fence — a 33³ grid is ~10k fragments, a few
 * warps per SM, so each draw waited on its own latency instead of filling the GPU.
 */

/** Uniforms set once per draw for every chunk of a batch; never per-chunk data. */
export const PASS_WIDE_UNIFORMS: ReadonlySet<string> = new Set([
  'sr_gridPoints', 'sr_rowTexels', 'sr_chunkRows', 'sr_gradientStepCells', 'sr_jobs',
]);

/** The block's binding point (one block per program). */
export const CHUNK_BLOCK_BINDING = 0;

export type ChunkValueType = 'float' | 'int' | 'uint' | 'vec2' | 'vec3' | 'vec4' | 'ivec2' | 'ivec3' | 'ivec4' | 'mat3' | 'mat4';

interface TypeInfo {
  /** std140 base alignment and size in bytes (arrays: every element aligned to 16). */
  align: number;
  size: number;
  /** Numbers per column, and columns (matrices: column-major, each column vec4-aligned). */
  rows: number;
  columns: number;
  int: boolean;
}

const TYPES: Record<ChunkValueType, TypeInfo> = {
  float: { align: 4, size: 4, rows: 1, columns: 1, int: false },
  int: { align: 4, size: 4, rows: 1, columns: 1, int: true },
  uint: { align: 4, size: 4, rows: 1, columns: 1, int: true },
  vec2: { align: 8, size: 8, rows: 2, columns: 1, int: false },
  vec3: { align: 16, size: 12, rows: 3, columns: 1, int: false },
  vec4: { align: 16, size: 16, rows: 4, columns: 1, int: false },
  ivec2: { align: 8, size: 8, rows: 2, columns: 1, int: true },
  ivec3: { align: 16, size: 12, rows: 3, columns: 1, int: true },
  ivec4: { align: 16, size: 16, rows: 4, columns: 1, int: true },
  mat3: { align: 16, size: 48, rows: 3, columns: 3, int: false },
  mat4: { align: 16, size: 64, rows: 4, columns: 4, int: false },
};

/** One per-chunk value: where it lies in a slot of the block. */
export interface ChunkMember {
  name: string;
  type: ChunkValueType;
  /** Array length, or 0 for a plain value. */
  count: number;
  /** Byte offset in the slot. */
  offset: number;
  /** Bytes between array elements (or matrix columns): 16 in std140. */
  stride: number;
}

export interface ChunkBlockLayout {
  members: ChunkMember[];
  /** Bytes per slot (the struct's size rounded up to 16, its array stride). */
  slotBytes: number;
  /** Slots in the block: the most chunks one draw samples. */
  slots: number;
}

const DECLARATION_RE = /^([ \t]*)uniform[ \t]+(?:(?:highp|mediump|lowp)[ \t]+)?(\w+)[ \t]+(\w+)[ \t]*(?:\[[ \t]*(\d+)[ \t]*\])?[ \t]*;/gm;

/**
 * The per-chunk uniforms declared in `sources` (in order of appearance; samplers and
 * {@link PASS_WIDE_UNIFORMS} left out) and the sources with each turned into a global of the
 * same line, so line numbers in compile errors stay true.
 */
export function extractChunkUniforms(sources: readonly string[]): { declarations: { name: string; type: ChunkValueType; count: number }[]; sources: string[] } {
  const declarations: { name: string; type: ChunkValueType; count: number }[] = [];
  const out = sources.map((source) =>
    source.replace(DECLARATION_RE, (whole, indent: string, type: string, name: string, count: string | undefined) => {
      if (PASS_WIDE_UNIFORMS.has(name) || /sampler/.test(type)) return whole;
      if (!(type in TYPES)) throw new Error(`per-chunk uniform ${name}: type ${type} is not supported in the chunk block`);
      if (!declarations.some((d) => d.name === name)) declarations.push({ name, type: type as ChunkValueType, count: count ? Number(count) : 0 });
      return `${indent}${type} ${name}${count ? `[${count}]` : ''};`;
    }));
  return { declarations, sources: out };
}

/** std140 layout of the per-chunk struct, with as many slots as fit `maxBlockBytes` (at most `maxSlots`). */
export function chunkBlockLayout(declarations: readonly { name: string; type: ChunkValueType; count: number }[], maxBlockBytes: number, maxSlots: number): ChunkBlockLayout {
  let offset = 0;
  const members: ChunkMember[] = [];
  for (const d of declarations) {
    const t = TYPES[d.type];
    const arrayLike = d.count > 0 || t.columns > 1;
    const align = arrayLike ? 16 : t.align;
    offset = Math.ceil(offset / align) * align;
    const stride = arrayLike ? 16 : t.size;
    const elements = Math.max(1, d.count) * t.columns;
    members.push({ name: d.name, type: d.type, count: d.count, offset, stride });
    offset += arrayLike ? elements * 16 : t.size;
  }
  const slotBytes = Math.max(16, Math.ceil(offset / 16) * 16);
  const slots = Math.max(1, Math.min(maxSlots, Math.floor(maxBlockBytes / slotBytes)));
  return { members, slotBytes, slots };
}

/** GLSL of `sr_chunk_block`: the struct, the block and `sr_loadChunk(int slot)`. */
export function chunkBlockGlsl(layout: ChunkBlockLayout): string {
  const members = layout.members.length > 0
    ? layout.members.map((m) => `  ${m.type} ${m.name}${m.count > 0 ? `[${m.count}]` : ''};`)
    : ['  vec4 sr_unused;'];
  const loads = layout.members.map((m) => `  ${m.name} = sr_chunks[slot].${m.name};`);
  return [
    '// Per-chunk values of a batch (src/gpu/chunkBlock.ts): one slot per chunk, copied into the globals',
    '// the field and mapping read.',
    'struct SrChunk {',
    ...members,
    '};',
    `layout(std140) uniform SrChunks { SrChunk sr_chunks[${layout.slots}]; };`,
    'void sr_loadChunk(int slot) {',
    ...loads,
    '}',
  ].join('\n');
}

/**
 * The block's bytes for a batch: slot s holds `values[s]`, by member name (numbers for scalars,
 * arrays for vectors, column-major matrices and arrays). A member a job does not name is zero.
 */
export function packChunkBlock(layout: ChunkBlockLayout, values: readonly Readonly<Record<string, number | ArrayLike<number>>>[]): ArrayBuffer {
  if (values.length > layout.slots) throw new RangeError(`${values.length} chunks for a block of ${layout.slots} slots`);
  const buffer = new ArrayBuffer(layout.slotBytes * Math.max(1, values.length));
  const f32 = new Float32Array(buffer);
  const i32 = new Int32Array(buffer);
  values.forEach((job, slot) => {
    for (const m of layout.members) {
      const value = job[m.name];
      if (value === undefined) continue;
      const t = TYPES[m.type];
      const numbers: ArrayLike<number> = typeof value === 'number' ? [value] : value;
      const perElement = t.rows * t.columns;
      const elements = Math.max(1, m.count);
      if (numbers.length !== perElement * elements) {
        throw new RangeError(`chunk value ${m.name}: ${numbers.length} numbers for ${m.type}${m.count > 0 ? `[${m.count}]` : ''}`);
      }
      const base = slot * layout.slotBytes + m.offset;
      for (let e = 0; e < elements; e++) {
        for (let c = 0; c < t.columns; c++) {
          const at = (base + (e * t.columns + c) * m.stride) / 4;
          for (let r = 0; r < t.rows; r++) {
            const v = numbers[(e * t.columns + c) * t.rows + r];
            if (t.int) i32[at + r] = v;
            else f32[at + r] = v;
          }
        }
      }
    }
  });
  return buffer;
}
