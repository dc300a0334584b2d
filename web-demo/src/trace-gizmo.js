// The tracing mode's things in the 3D view: the IK target sphere (dragged with the pointer on the
// plane through it that faces the camera), the control points as small spheres and each limb's path
// as a line. Drawn over the model (rendering group 1) so that they stay visible and grabbable.
// While the sphere is dragged the camera's input is detached, so orbiting never fights the drag.
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder.js';

import { add, rayPlane, sub } from './modes/tracing-core.js';

const TARGET = Color3.FromHexString('#ff9f43');
const POINT = Color3.FromHexString('#b388ff');
const PATH = Color3.FromHexString('#ffd54f');
const OTHER_PATH = Color3.FromHexString('#9c8fc4');
/** The sphere is grabbable within this many CSS pixels of its centre at least. */
const MIN_GRAB_PX = 14;

export class TraceGizmo {
  /** handlers: { onDragStart(), onDrag([x, y, z]), onDragEnd([x, y, z]) } */
  constructor(viewer, handlers = {}) {
    this.viewer = viewer;
    this.handlers = handlers;
    const scene = (this.scene = viewer.scene);
    const material = (name, color, alpha = 1) => {
      const m = new StandardMaterial(name, scene);
      m.diffuseColor = color;
      m.emissiveColor = color.scale(0.45);
      m.specularColor = new Color3(0.25, 0.25, 0.25);
      m.alpha = alpha;
      return m;
    };
    this.targetMaterial = material('trace-target', TARGET);
    this.pointMaterial = material('trace-point', POINT);
    this.otherPointMaterial = material('trace-point-other', POINT, 0.55);
    this.target = CreateSphere('trace-target', { diameter: 2, segments: 20 }, scene);
    this.target.material = this.targetMaterial;
    this.target.renderingGroupId = 1;
    this.target.isPickable = false;
    this.radius = 0.6;
    this.target.scaling.setAll(this.radius);
    this.meshes = []; // points and lines, rebuilt by setPaths
    this.follow = null; // a bone name the sphere follows during playback
    this.drag = null;

    this._onDown = (e) => this._pointerDown(e);
    this._onMove = (e) => this._pointerMove(e);
    this._onUp = (e) => this._pointerUp(e);
    this._onHover = (e) => this._hover(e);
    // Capture phase on the viewport: before the canvas (and Babylon's camera input) sees the press.
    this.host = viewer.canvas.parentElement ?? viewer.canvas;
    this.host.addEventListener('pointerdown', this._onDown, { capture: true });
    viewer.canvas.addEventListener('pointermove', this._onHover);
    this._beforeRender = scene.onBeforeRenderObservable.add(() => this._followBone());
  }

  /** Size the spheres for a model `height` units tall. */
  setScale(height) {
    this.radius = Math.max(0.15, 0.03 * height);
    this.target.scaling.setAll(this.radius);
    for (const m of this.meshes) if (m.metadata?.point) m.scaling.setAll(this.radius * 0.45);
  }

  get position() {
    return this.target.position.asArray();
  }

  setTarget(p) {
    if (p) this.target.position.set(p[0], p[1], p[2]);
    this.target.setEnabled(!!p);
  }

  /** During playback the sphere sits on this bone (the traced end); null: where setTarget put it. */
  followBone(name) {
    this.follow = name;
  }

  _followBone() {
    if (!this.follow || this.drag) return;
    const p = this.viewer.bonePosition(this.follow);
    if (p) this.target.position.set(p[0], p[1], p[2]);
  }

  /**
   * Draw the paths: [{ points: [[x, y, z] world], line: flat world samples or null, selected }].
   */
  setPaths(paths) {
    for (const m of this.meshes) m.dispose();
    this.meshes = [];
    paths.forEach((path, k) => {
      for (const [i, p] of path.points.entries()) {
        const s = CreateSphere(`trace-point-${k}-${i}`, { diameter: 2, segments: 10 }, this.scene);
        s.material = path.selected ? this.pointMaterial : this.otherPointMaterial;
        s.position.set(p[0], p[1], p[2]);
        s.scaling.setAll(this.radius * 0.45);
        s.renderingGroupId = 1;
        s.isPickable = false;
        s.metadata = { point: true };
        this.meshes.push(s);
      }
      if (path.line && path.line.length >= 6) {
        const pts = [];
        for (let i = 0; i < path.line.length; i += 3) pts.push(new Vector3(path.line[i], path.line[i + 1], path.line[i + 2]));
        const line = CreateLines(`trace-path-${k}`, { points: pts }, this.scene);
        line.color = path.selected ? PATH : OTHER_PATH;
        line.alpha = path.selected ? 1 : 0.6;
        line.renderingGroupId = 1;
        line.isPickable = false;
        this.meshes.push(line);
      }
    });
  }

  /** The sphere's centre in canvas CSS pixels. */
  screenPosition() {
    return this.viewer.screenPoint(this.position);
  }

  /** Is canvas CSS pixel (x, y) on the sphere? */
  hits(x, y) {
    if (!this.target.isEnabled()) return false;
    const c = this.target.position;
    const cam = this.viewer.camera;
    const right = Vector3.Cross(cam.upVector, c.subtract(cam.position)).normalize();
    const centre = this.viewer.screenPoint(c.asArray());
    const edge = this.viewer.screenPoint(c.add(right.scale(this.radius)).asArray());
    const r = Math.max(MIN_GRAB_PX, Math.hypot(edge.x - centre.x, edge.y - centre.y) * 1.15);
    return Math.hypot(x - centre.x, y - centre.y) <= r;
  }

  _local(e) {
    const rect = this.viewer.canvas.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  _planeHit(e) {
    const [x, y] = this._local(e);
    const { origin, dir } = this.viewer.pointerRay(x, y);
    return rayPlane(origin, dir, this.drag.centre, this.drag.normal);
  }

  _pointerDown(e) {
    if (e.button !== 0 || e.target !== this.viewer.canvas || this.drag) return;
    const [x, y] = this._local(e);
    if (!this.hits(x, y)) return;
    // Ours: the camera never sees this press, and is detached until the drag ends.
    e.stopPropagation();
    e.preventDefault();
    const cam = this.viewer.camera;
    const centre = this.position;
    const normal = sub(centre, cam.position.asArray());
    this.drag = { pointerId: e.pointerId, centre, normal, offset: [0, 0, 0] };
    const hit = this._planeHit(e);
    this.drag.offset = hit ? sub(centre, hit) : [0, 0, 0];
    this.follow = null;
    cam.detachControl();
    window.addEventListener('pointermove', this._onMove);
    window.addEventListener('pointerup', this._onUp);
    window.addEventListener('pointercancel', this._onUp);
    this._cursor('grabbing');
    this.handlers.onDragStart?.();
  }

  _pointerMove(e) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    const hit = this._planeHit(e);
    if (!hit) return;
    const p = add(hit, this.drag.offset);
    this.target.position.set(p[0], p[1], p[2]);
    this.handlers.onDrag?.(p);
  }

  _pointerUp(e) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    this._endDrag();
    this.handlers.onDragEnd?.(this.position);
  }

  _endDrag() {
    this.drag = null;
    window.removeEventListener('pointermove', this._onMove);
    window.removeEventListener('pointerup', this._onUp);
    window.removeEventListener('pointercancel', this._onUp);
    this.viewer.camera.attachControl(true);
    this._cursor('');
  }

  _hover(e) {
    if (this.drag || e.buttons) return;
    const [x, y] = this._local(e);
    this._cursor(this.hits(x, y) ? 'grab' : '');
  }

  _cursor(c) {
    // Babylon writes scene.defaultCursor to the canvas on its own pointer moves.
    this.scene.defaultCursor = c;
    this.viewer.canvas.style.cursor = c;
  }

  dispose() {
    if (this.drag) this._endDrag();
    this.host.removeEventListener('pointerdown', this._onDown, { capture: true });
    this.viewer.canvas.removeEventListener('pointermove', this._onHover);
    this.scene.onBeforeRenderObservable.remove(this._beforeRender);
    for (const m of this.meshes) m.dispose();
    this.target.dispose();
    for (const m of [this.targetMaterial, this.pointMaterial, this.otherPointMaterial]) m.dispose();
    this._cursor('');
  }
}
