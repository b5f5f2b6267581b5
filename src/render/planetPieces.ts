/**
 * Planet chunk and seam pieces on the GPU: the three.js mesh of a job's result, its materials
 * (the standard terrain material with the planet's ground, air and close-range detail; level tints
 * for debugging), the bytes it holds, and the one `dispose`: the pieces half of the streaming
 * model's piece provider (src/lod/pieceProvider.ts; `create` makes the piece of a job's answer for
 * src/workers/PlanetJobs.ts). What to draw and when is src/lod/planetStreaming.ts's; PlanetView wires
 * the two.
 */
import { compileOffFrame } from './compileOffFrame';
import { GpuResources } from './disposal';
import { GeometryUploader } from './geometryUpload';
import {
  BufferAttribute,
  Color,
  Mesh,
  MeshStandardMaterial,
  type Group,
  type Material,
  type PerspectiveCamera,
  type Scene,
  type WebGLRenderer,
} from 'three';
import type { ChunkKey, PlanetPieceSink } from '../lod/index';
import { parseChunkKey } from '../lod/index';
import {
  nonManifoldEdgeTriangles, openEdgeTriangles, unpackVertexCells, validateMesh, weldMeshes,
  type ChunkMesh, type MeshReport, type PackedBoundaryLeaves, type PackedVertexCells,
} from '../mesher/index';
import { pieceDataBytes, type PieceData } from '../mesher/index';
import { createBodyGeometry } from './bodyGeometry';
import { withSunCascades } from './sunCascades';
import type { Atmosphere } from './Atmosphere';
import { withAtmosphere } from './atmosphereMaterial';
import { PlanetGround, type PlanetGroundOptions } from './planetGround';
import type { GroundPalette } from '../field/groundColours';
import { withDitherFade, type DitherFadeUniforms } from './ditherFade';
import { PieceFades } from './pieceFades';
import { GROUP_LEVELS, PieceBatches } from './pieceBatches';

/**
 * A piece as kept (issue 15: ~64 B a drawn triangle all in): float32 chunk-relative positions,
 * 16-bit normals, 16-bit indices where the vertices allow, and — packed losslessly
 * (src/mesher/packing.ts) — the vertex cells that weld it to seams and a chunk's boundary leaves
 * that seam jobs read. Measured on planetRecipe(4) chunks: 52 B a triangle for geometry + cells +
 * leaves against 120-600 before.
 */
export interface PlanetPiece {
  kind: 'chunk' | 'seam';
  key: ChunkKey;
  mesh: Mesh | null;
  positions: Float32Array;
  normals: Int16Array;
  indices: Uint16Array | Uint32Array;
  originM: [number, number, number];
  vertexCells: PackedVertexCells;
  /** Weld tag: the chunk's face, or per seam vertex. */
  tags: number | Uint8Array;
  /** A chunk's boundary leaves, packed (seam jobs read them). */
  leaves: PackedBoundaryLeaves | null;
  /**
   * The name its body worker kept those leaves under (leafStore.ts), unique to the job that made
   * this piece: two jobs for one piece id need not agree bit for bit (one GPU-sampled, one in JS),
   * so a seam must read this job's leaves, not another's under the same id.
   */
  leafId: string | null;
  /** A chunk's samples: kept by its worker, from the GPU, or JS (debug attribution); null for seams. */
  sampledBy: string | null;
  bytes: number;
  triangles: number;
}

/** The piece as a ChunkMesh with its weld identity (the crack check). */
export function weldableMesh(piece: PlanetPiece): ChunkMesh {
  const normals = new Float32Array(piece.normals.length);
  for (let i = 0; i < normals.length; i++) normals[i] = piece.normals[i] / 0x7fff;
  return { positions: piece.positions, normals, indices: Uint32Array.from(piece.indices), originWorld: piece.originM, vertexCells: unpackVertexCells(piece.vertexCells) };
}


const LEVEL_COLOURS = [0xe6194b, 0xf58231, 0xffe119, 0xbfef45, 0x3cb44b, 0x42d4f4, 0x4363d8, 0x911eb4, 0xf032e6, 0x469990, 0xfabed4, 0xffd8b1, 0xaaffc3, 0xdcbeff];
const SEAM_COLOUR = 0xffffff;

export class PlanetPieces implements PlanetPieceSink<PlanetPiece> {
  /** Tint chunks by level and seams white (debug; the GUI's "chunk levels" checkbox). */
  debugLevels = false;
  private readonly material: Material;
  private readonly levelMaterials: MeshStandardMaterial[];
  private readonly seamMaterial: MeshStandardMaterial;
  private basePrecompiled = false;
  /** The materials, the batches and the uploader (disposeMaterials); each piece's geometry is freed by {@link dispose}. */
  private readonly gpu = new GpuResources();
  /** New meshes' buffers go to the GPU while they wait for their transaction (geometryUpload.ts). */
  readonly uploads = new GeometryUploader();

  /** The ground's colours on the standard material (none: one flat tone). */
  private readonly ground: PlanetGround | null;

  /** The palette the body workers colour this planet's pieces from (null: a flat tone, no colours). */
  get groundPalette(): GroundPalette | null {
    return this.ground?.palette ?? null;
  }
  /** Cross-fades between drawn sets (pieceFades.ts). */
  readonly fades = new PieceFades<Mesh>();
  /** The pieces drawn whole, a group of neighbours a draw once they stay the same a moment (pieceBatches.ts). */
  readonly batches: PieceBatches;
  /**
   * The standard material for meshes fading in and out: the same program with its own fade
   * uniforms (three uploads a standard material's uniforms only when the material changes).
   */
  private readonly fadeMaterials: { in: { material: Material; fade: DitherFadeUniforms }; out: { material: Material; fade: DitherFadeUniforms } };
  /** Meshes drawn with a fade material, to be given their own back once whole or hidden. */
  private readonly onFadeMaterial = new Set<Mesh>();
  /**
   * Changes whenever a piece is shown or hidden (a commit, the end of a fade): what the planet
   * casts into the sun's shadow maps changed (Sun's cached cascades).
   */
  castersVersion = 0;

  constructor(
    private readonly root: Group, private readonly cellSizeM: (level: number) => number, private readonly atmosphere: Atmosphere | null = null,
    ground: PlanetGroundOptions | null = null,
  ) {
    // The ground's close-range detail starts where the finest mesh cells stop showing relief.
    this.ground = ground && new PlanetGround({ detailMaxM: cellSizeM(0), ...ground });
    // Standard materials that take the sun's cascaded shadow (far terrain shadows itself too), coloured by the ground, seen through the air.
    const standard = (): { material: Material; fade: DitherFadeUniforms } => {
      const base = this.gpu.own(withSunCascades(new MeshStandardMaterial({ color: new Color(0.26, 0.24, 0.21), roughness: 0.95 })));
      const fade = withDitherFade(base);
      return { material: this.throughAir(this.ground ? this.ground.patch(base) : base), fade };
    };
    this.material = standard().material;
    this.batches = this.gpu.own(new PieceBatches(root, () => this.material));
    this.gpu.own(this.uploads);
    this.fadeMaterials = { in: standard(), out: standard() };
    this.fadeMaterials.out.fade.uSrFadeComplement.value = true;
    this.levelMaterials = LEVEL_COLOURS.map((c) => this.gpu.own(withSunCascades(new MeshStandardMaterial({ color: c, roughness: 0.9 }))));
    this.seamMaterial = this.gpu.own(withSunCascades(new MeshStandardMaterial({ color: SEAM_COLOUR, roughness: 0.9, emissive: 0x202020 })));
  }

  /** A hidden mesh for a job's result, packed by its worker (pieceData.ts; shown when a transaction commits). */
  create(
    kind: 'chunk' | 'seam', key: ChunkKey, d: PieceData, tags: number | Uint8Array, leafId: string | null = null, sampledBy: string | null = null,
  ): PlanetPiece {
    let mesh: Mesh | null = null;
    if (d.indices.length > 0) {
      const geometry = createBodyGeometry({ positions: d.positions, normals: d.normals, indices: d.indices, bvhRoots: null });
      if (this.ground && !d.colours) throw new Error(`PlanetPieces: ${kind} ${key} came without the ground's colours (the planet was registered without its palette?)`);
      if (d.colours) geometry.setAttribute('groundColour', new BufferAttribute(d.colours, 4, true));
      mesh = new Mesh(geometry, this.materialFor(kind, key));
      mesh.position.set(...d.originM);
      // A piece never moves in its planet's frame: its matrix is composed once, not in each of the
      // frame's world-matrix passes (the floating origin's shift and restore) — 1,700 meshes near
      // the ground.
      mesh.matrixAutoUpdate = false;
      mesh.updateMatrix();
      mesh.castShadow = mesh.receiveShadow = true;
      mesh.name = `${kind} ${key}`;
      mesh.visible = false;
      mesh.userData.originM = d.originM;
      mesh.userData.kind = kind;
      const a = parseChunkKey(key);
      mesh.userData.level = a.level;
      mesh.userData.cellSizeM = this.cellSizeM(mesh.userData.level as number);
      mesh.userData.key = key;
      // Its batch group: the ancestor GROUP_LEVELS up of the chunk (a seam's: its owner's).
      mesh.userData.batchGroup = `${a.face}/${a.level}/${a.ci >> GROUP_LEVELS}/${a.cj >> GROUP_LEVELS}/${a.ck >> GROUP_LEVELS}`;
      this.root.add(mesh);
      this.uploads.queue(mesh);
    }
    const bytes = pieceDataBytes(d) + (typeof tags === 'number' ? 0 : tags.byteLength);
    return {
      kind, key, mesh, positions: d.positions, normals: d.normals, indices: d.indices, originM: d.originM, vertexCells: d.vertexCells, tags,
      leaves: d.leaves, leafId, sampledBy, bytes, triangles: d.indices.length / 3,
    };
  }

  /** The one place a piece's geometry leaves the scene and the GPU (after its fade-out, if it is fading out). */
  dispose(piece: PlanetPiece): void {
    const mesh = piece.mesh;
    if (!mesh) return;
    this.fades.dispose(mesh, () => {
      mesh.removeFromParent();
      mesh.geometry.dispose();
    });
  }

  /** Its geometry is on the GPU (or it has none): a commit showing it uploads nothing. */
  ready(piece: PlanetPiece): boolean {
    return !piece.mesh || !this.uploads.isQueued(piece.mesh);
  }

  /** Shown or hidden by a commit: cross-faded (pieceFades.ts). */
  show(piece: PlanetPiece, visible: boolean): void {
    if (!piece.mesh) return;
    this.castersVersion++;
    if (visible) this.fades.show(piece.mesh);
    else this.fades.hide(piece.mesh);
  }

  /**
   * Each frame, after the commits: the fade's phase, and the fading meshes' materials — the
   * standard material's fade twins while they fade, their own again once whole or hidden.
   */
  private updateFades(): void {
    const fading = this.fades.active;
    this.fades.tick();
    if (fading && !this.fades.active) this.castersVersion++; // the faded-out pieces are hidden now
    const f = this.fades;
    for (const mesh of this.onFadeMaterial) {
      if (f.stateOf(mesh).fade < 1 && mesh.visible) continue;
      this.onFadeMaterial.delete(mesh);
      mesh.material = this.materialFor(mesh.userData.kind as 'chunk' | 'seam', mesh.userData.key as ChunkKey);
    }
    for (const [mesh, state] of f.fadingMeshes()) {
      if (this.debugLevels) continue;
      mesh.material = this.fadeMaterials[state].material;
      this.onFadeMaterial.add(mesh);
    }
    this.fadeMaterials.in.fade.uSrFade.value = f.phase;
    this.fadeMaterials.out.fade.uSrFade.value = 1 - f.phase;
  }

  private materialFor(kind: 'chunk' | 'seam', key: ChunkKey): Material {
    if (this.debugLevels) return kind === 'seam' ? this.seamMaterial : this.levelMaterials[parseChunkKey(key).level % this.levelMaterials.length];
    return this.material;
  }

  /** Keeps drawn meshes on the right material (debug tint toggled); the camera in the planet's frame. */
  updateMaterials(drawn: Iterable<PlanetPiece>, cameraInBody: readonly [number, number, number] = [0, 0, 0]): void {
    this.ground?.setCamera(cameraInBody);
    this.updateFades();
    const whole: { mesh: Mesh; group: string }[] = [];
    for (const piece of drawn) {
      const mesh = piece.mesh;
      if (!mesh || this.onFadeMaterial.has(mesh)) continue;
      mesh.material = this.materialFor(piece.kind, piece.key);
      if (mesh.visible) whole.push({ mesh, group: mesh.userData.batchGroup as string });
    }
    // Still neighbours in one draw (pieceBatches.ts); the level tint draws them singly.
    if (this.debugLevels) this.batches.clear();
    else this.batches.update(whole, performance.now());
  }

  /** The planet's atmosphere on a surface material (none: as it is). */
  private throughAir<M extends Material>(material: M): M {
    return this.atmosphere ? withAtmosphere(material, this.atmosphere) : material;
  }

  /**
   * Compiles the chunks' standard material off the frame path (KHR_parallel_shader_compile through
   * compileAsync) before the first chunk is shown: otherwise the first commit's frame compiles it
   * (a 50 ms long task on SwiftShader, measured by the planet bench). Once.
   */
  precompileBase(renderer: WebGLRenderer, scene: Scene, camera: PerspectiveCamera): void {
    if (this.basePrecompiled) return;
    this.basePrecompiled = true;
    // A failure shows at first draw instead.
    compileOffFrame(this.material, undefined, this.root, renderer, scene, camera).catch(() => undefined);
  }

  /** Frees the materials (the pieces are disposed by their owner). */
  disposeMaterials(): void {
    this.gpu.dispose();
    this.fades.finish();
  }
}

/**
 * The pieces (in weld order, with their triangle counts) holding the given triangles of their weld
 * (ascending, e.g. mesher's openEdgeTriangles or nonManifoldEdgeTriangles): "kind key (sampled by)", at most 12. Debug: where a
 * crack is, and how its chunks were made.
 */
export function piecesAtTriangles(triangles: Iterable<number>, pieces: readonly PlanetPiece[]): string[] {
  const out = new Set<string>();
  let piece = 0, end = pieces.length > 0 ? pieces[0].triangles : 0;
  for (const t of triangles) {
    while (t >= end && piece + 1 < pieces.length) end += pieces[++piece].triangles;
    const p = pieces[piece];
    out.add(`${p.kind} ${p.key}${p.sampledBy ? ` (${p.sampledBy})` : ''}`);
    if (out.size >= 12) break;
  }
  return [...out];
}

/** Watertightness of a set of drawn pieces, welded by leaf identity (issue 10's crack check). */
export interface PiecesCrackReport extends MeshReport {
  chunks: number;
  seams: number;
  /** Pieces with an open edge (kind, key and how a chunk was sampled), at most 12: empty when watertight. */
  openAt: string[];
  /** Pieces with an edge shared by more than two triangles (overlap), the same way: empty when manifold. */
  nonManifoldAt: string[];
  /**
   * The drawn surface's content hash: each piece's positions, indices and origin hashed, the hashes
   * sorted (the drawn order depends on the commits that led here). Equal after an edit is undone.
   */
  hash: string;
  ms: number;
}

/** Welds `drawn` (chunks and seams) and checks it: open edges are cracks, edges used 3+ times overlaps. */
export function crackReport(drawn: Iterable<PlanetPiece>): PiecesCrackReport {
  const t0 = performance.now();
  const meshes: ChunkMesh[] = [];
  const tags: (number | Uint8Array)[] = [];
  const pieces: PlanetPiece[] = [];
  const hashes: string[] = [];
  let chunks = 0, seams = 0;
  for (const p of drawn) {
    if (p.triangles === 0) continue;
    hashes.push(pieceHash(p));
    meshes.push(weldableMesh(p));
    tags.push(p.tags);
    pieces.push(p);
    if (p.kind === 'chunk') chunks++;
    else seams++;
  }
  const welded = weldMeshes(meshes, tags);
  const report = validateMesh(welded);
  const openAt = report.boundaryEdges > 0 ? piecesAtTriangles(openEdgeTriangles(welded.indices), pieces) : [];
  const nonManifoldAt = report.nonManifoldEdges > 0 ? piecesAtTriangles(nonManifoldEdgeTriangles(welded.indices), pieces) : [];
  const hash = fnv(new TextEncoder().encode(hashes.sort().join(';')), 0x811c9dc5).toString(16);
  return { ...report, chunks, seams, openAt, nonManifoldAt, hash, ms: performance.now() - t0 };
}

function pieceHash(p: PlanetPiece): string {
  let h = fnv(new Uint8Array(p.positions.buffer, p.positions.byteOffset, p.positions.byteLength), 0x811c9dc5);
  h = fnv(new Uint8Array(p.indices.buffer, p.indices.byteOffset, p.indices.byteLength), h);
  h = fnv(new Uint8Array(Float64Array.from(p.originM).buffer), h);
  return h.toString(16).padStart(8, '0');
}

/** 32-bit FNV-1a over `bytes`, from `h`. */
function fnv(bytes: Uint8Array, h: number): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}
