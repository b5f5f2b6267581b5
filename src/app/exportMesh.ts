/**
 * Mesh export: the asteroid in view as binary glTF (GLB, three's GLTFExporter) or Wavefront
 * OBJ (OBJExporter), for the export buttons and the CLI's `--export glb|obj`.
 *
 * Only geometry and a simple material leave the app: three's exporters cannot express our
 * BodyMaterial (a ShaderMaterial with the body's field in GLSL), so each mesh is copied with
 * its transform baked in (relative to the exported root) and a MeshStandardMaterial of the
 * family colour. The scene itself is never modified.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  Group,
  Matrix3,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  ShaderMaterial,
  type Material,
  type Object3D,
} from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { OBJExporter } from 'three/examples/jsm/exporters/OBJExporter.js';
import { ROCK_PALETTES } from '../render/BodyMaterial';

export { download } from './screenshot';

export const MESH_FORMATS = ['glb', 'obj'] as const;
export type MeshFormat = (typeof MESH_FORMATS)[number];

export interface ExportMeshOptions {
  /** Asteroid family for the colour when the mesh's own material does not give one. */
  family?: string;
  /** Name of the exported node and mesh (default `asteroid`). */
  name?: string;
}

/** A finished export: the file's bytes, its file name and how many triangles it holds. */
export interface ExportedMesh {
  blob: Blob;
  name: string;
  triangles: number;
}

/** The family colour AsteroidField's standard material uses (base and regolith, half and half). */
export function familyColor(family: string | undefined): { color: Color; roughness: number; metalness: number } {
  const p = ROCK_PALETTES[family ?? 'default'] ?? ROCK_PALETTES.default;
  return { color: new Color(...p.base).lerp(new Color(...p.regolith), 0.5), roughness: p.roughness, metalness: p.metalness };
}

/** A plain material that looks like `source` (its colour, or BodyMaterial's rock uniforms). */
function simpleMaterial(source: Material | Material[], options: ExportMeshOptions): MeshStandardMaterial {
  const m = Array.isArray(source) ? source[0] : source;
  let { color, roughness, metalness } = familyColor(options.family);
  if (m instanceof MeshStandardMaterial) {
    color = m.color.clone();
    roughness = m.roughness;
    metalness = m.metalness;
  } else if (m instanceof ShaderMaterial && m.uniforms.uRockBase && m.uniforms.uRegolith) {
    color = (m.uniforms.uRockBase.value as Color).clone().lerp(m.uniforms.uRegolith.value as Color, 0.5);
    roughness = (m.uniforms.uRoughness?.value as number | undefined) ?? roughness;
    metalness = (m.uniforms.uMetalness?.value as number | undefined) ?? metalness;
  }
  return new MeshStandardMaterial({ name: `${options.name ?? 'asteroid'} rock`, color, roughness, metalness });
}

/**
 * A detached copy of every visible mesh under `root` (itself included): positions and normals
 * moved into `root`'s frame, indices kept, nothing but `position`, `normal` and the index, and
 * one plain material. Dispose the copy's geometries and material when done
 * ({@link disposeExportable}).
 */
export function exportableCopy(root: Object3D, options: ExportMeshOptions = {}): Group {
  const name = options.name ?? 'asteroid';
  const group = new Group();
  group.name = name;
  root.updateWorldMatrix(true, true);
  const toRoot = new Matrix4().copy(root.matrixWorld).invert();
  const matrix = new Matrix4();
  const normalMatrix = new Matrix3();
  let material: MeshStandardMaterial | null = null;
  root.traverseVisible((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    const source = mesh.geometry;
    const position = source.getAttribute('position');
    if (!position || position.count === 0) return;
    matrix.multiplyMatrices(toRoot, mesh.matrixWorld);
    normalMatrix.getNormalMatrix(matrix);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(Float32Array.from(position.array as ArrayLike<number>), 3).applyMatrix4(matrix));
    const normal = source.getAttribute('normal');
    if (normal) {
      const n = new BufferAttribute(Float32Array.from(normal.array as ArrayLike<number>), 3).applyNormalMatrix(normalMatrix);
      // glTF wants unit normals (the validator's ACCESSOR_NON_UNIT); renormalise after the matrix.
      const a = n.array as Float32Array;
      for (let i = 0; i < a.length; i += 3) {
        const l = Math.hypot(a[i], a[i + 1], a[i + 2]) || 1;
        a[i] /= l;
        a[i + 1] /= l;
        a[i + 2] /= l;
      }
      geometry.setAttribute('normal', n);
    }
    if (source.index) geometry.setIndex(new BufferAttribute((source.index.array as Uint32Array).slice(), 1));
    material ??= simpleMaterial(mesh.material, { ...options, name });
    const copy = new Mesh(geometry, material);
    copy.name = group.children.length === 0 ? name : `${name} ${group.children.length}`;
    group.add(copy);
  });
  if (group.children.length === 0) throw new Error('nothing to export: no visible mesh with vertices');
  return group;
}

/** Frees what {@link exportableCopy} made. */
export function disposeExportable(group: Group): void {
  const materials = new Set<Material>();
  for (const child of group.children) {
    const mesh = child as Mesh;
    mesh.geometry.dispose();
    materials.add(mesh.material as Material);
  }
  for (const m of materials) m.dispose();
}

/** Triangles of the meshes under `root` (indexed or not). */
export function countTriangles(root: Object3D): number {
  let triangles = 0;
  root.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    const g = mesh.geometry;
    triangles += (g.index ? g.index.count : (g.getAttribute('position')?.count ?? 0)) / 3;
  });
  return triangles;
}

/** Binary glTF 2.0 of the meshes under `root`. */
export async function exportGlb(root: Object3D, options: ExportMeshOptions = {}): Promise<ArrayBuffer> {
  const copy = exportableCopy(root, options);
  try {
    const result = await new GLTFExporter().parseAsync(copy, { binary: true, onlyVisible: true });
    if (!(result instanceof ArrayBuffer)) throw new Error('GLTFExporter did not return binary glTF');
    return result;
  } finally {
    disposeExportable(copy);
  }
}

/** Wavefront OBJ text of the meshes under `root` (positions, normals, faces; no material file). */
export function exportObj(root: Object3D, options: ExportMeshOptions = {}): string {
  const copy = exportableCopy(root, options);
  try {
    return new OBJExporter().parse(copy);
  } finally {
    disposeExportable(copy);
  }
}

/** Exports in `format`, ready for {@link download}: `<baseName>.glb` or `<baseName>.obj`. */
export async function exportMesh(root: Object3D, format: MeshFormat, baseName: string, options: ExportMeshOptions = {}): Promise<ExportedMesh> {
  const triangles = countTriangles(root);
  const blob =
    format === 'glb'
      ? new Blob([await exportGlb(root, options)], { type: 'model/gltf-binary' })
      : new Blob([exportObj(root, options)], { type: 'model/obj' });
  return { blob, name: `${baseName}.${format}`, triangles };
}

/** {@link exportMesh} as base64 (what `window.__sr.exportMesh` hands the CLI). */
export async function exportMeshBase64(
  root: Object3D,
  format: MeshFormat,
  baseName: string,
  options: ExportMeshOptions = {},
): Promise<{ base64: string; name: string; triangles: number }> {
  const exported = await exportMesh(root, format, baseName, options);
  const bytes = new Uint8Array(await exported.blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { base64: btoa(bin), name: exported.name, triangles: exported.triangles };
}
