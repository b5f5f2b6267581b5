/**
 * Geometry uploads spread over frames. three.js uploads a mesh's buffers the first time it draws it:
 * a planet transaction shows ~1,000 new chunk and seam meshes in one frame at commit (crack-free
 * swaps need them all at once), and that frame paid for every upload. Here each new mesh's buffers
 * go up while it waits for its transaction, a few milliseconds a frame: a proxy geometry that
 * shares the mesh's attributes (three keeps GPU buffers per attribute) and draws nothing (draw range
 * 0) is rendered into a 1×1 target. No vertex is shaded: on a software GPU the proxy costs no more
 * than the upload itself.
 */
import { BufferGeometry, Mesh, MeshBasicMaterial, OrthographicCamera, Scene, WebGLRenderTarget, type WebGLRenderer } from 'three';
import { GpuResources, type Disposable } from './disposal';

/** Main-thread time a frame may spend uploading, ms (at least one mesh a frame). */
export const UPLOAD_BUDGET_MS = 3;

export class GeometryUploader implements Disposable {
  private readonly pending: Mesh[] = [];
  private readonly pendingSet = new Set<Mesh>();
  private readonly scene = new Scene();
  private readonly camera = new OrthographicCamera(-1, 1, 1, -1, 0, 1);
  /** The proxy's material and geometry, and the 1×1 target. */
  private readonly gpu = new GpuResources();
  private readonly material = this.gpu.own(new MeshBasicMaterial({ colorWrite: false, depthWrite: false, depthTest: false }));
  /** One proxy for every upload (a proxy per mesh would leave a vertex array object per mesh behind). */
  private readonly proxyGeometry = this.gpu.own(new BufferGeometry());
  private readonly proxy = new Mesh(this.proxyGeometry, this.material);
  private target: WebGLRenderTarget | null = null;
  /** Meshes uploaded so far (tests, stats). */
  uploaded = 0;
  /** Off: nothing is queued (no renderer to flush with, or the benchmark's comparison). */
  enabled = true;

  constructor() {
    this.proxy.frustumCulled = false;
    this.proxyGeometry.setDrawRange(0, 0);
    this.scene.add(this.proxy);
  }

  /** Uploads `mesh`'s geometry before it is first shown (it stays where it is). */
  queue(mesh: Mesh): void {
    if (!this.enabled || this.pendingSet.has(mesh)) return;
    this.pending.push(mesh);
    this.pendingSet.add(mesh);
  }

  /** Whether `mesh` still waits for its upload. */
  isQueued(mesh: Mesh): boolean {
    return this.pendingSet.has(mesh);
  }

  get queued(): number {
    return this.pending.length;
  }

  /**
   * Uploads queued geometries for about `budgetMs` (at least one), oldest first. A mesh that left
   * its parent meanwhile (disposed) is skipped: drawing it would upload a disposed geometry again.
   */
  flush(renderer: WebGLRenderer, budgetMs = UPLOAD_BUDGET_MS): void {
    if (this.pending.length === 0) return;
    this.target ??= this.gpu.own(new WebGLRenderTarget(1, 1, { depthBuffer: false }));
    const previous = renderer.getRenderTarget();
    const shadows = renderer.shadowMap.autoUpdate;
    renderer.shadowMap.autoUpdate = false;
    renderer.setRenderTarget(this.target);
    const t0 = performance.now();
    let n = 0, done = 0;
    while (n < this.pending.length && (done === 0 || performance.now() - t0 < budgetMs)) {
      const mesh = this.pending[n++];
      this.pendingSet.delete(mesh);
      if (!mesh.parent) continue;
      this.share(mesh.geometry);
      renderer.render(this.scene, this.camera); // one at a time: the budget is checked between uploads
      done++;
    }
    this.share(null);
    this.pending.splice(0, n);
    this.uploaded += done;
    renderer.setRenderTarget(previous);
    renderer.shadowMap.autoUpdate = shadows;
  }

  /** Points the proxy at `geometry`'s attributes and index (or at none). */
  private share(geometry: BufferGeometry | null): void {
    const proxy = this.proxyGeometry;
    for (const name of Object.keys(proxy.attributes)) proxy.deleteAttribute(name);
    proxy.setIndex(null);
    if (!geometry) return;
    for (const [name, attribute] of Object.entries(geometry.attributes)) proxy.setAttribute(name, attribute);
    proxy.setIndex(geometry.index);
  }

  dispose(): void {
    this.pending.length = 0;
    this.pendingSet.clear();
    // The proxy holds no attribute now: disposing it frees only its own state, not a mesh's buffers.
    this.gpu.dispose();
    this.target = null;
  }
}
