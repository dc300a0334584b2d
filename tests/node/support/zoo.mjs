// The test zoo in Node: the models tests/zoo/zoo_gen.c writes into build/native/zoo/ at build time
// (mannequin variants like real models: A-pose, bent knees, 足ＩＫ below the ankle, 足IK親, D bones
// with their own IK, 腰キャンセル, no グルーブ/上半身2, asymmetric, 0.5x/2x, PMD; docs/zoo.md), and one
// iteration over every zoo model, the built-in mannequin and the shared PMX fixtures.
//
//   import { zooAvailable, zooModels, everyModel } from './support/zoo.mjs';
//   for (const m of everyModel(pm)) { m.id; m.kind; m.format; m.bytes(); m.expect; }
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURES, REPO_ROOT, fixturesAvailable } from './babylon.mjs';

/** Where the native build writes the zoo ($PM_ZOO overrides). */
export const ZOO_DIR = process.env.PM_ZOO || join(REPO_ROOT, 'build/native/zoo');

/** The shared PMX fixtures in the "every model" iteration. */
export const FIXTURE_MODELS = ['pmx/yw_test_model/yw_test_model.pmx', 'pmx/mmt_test_model.pmx'];

/** True when build/native/zoo/zoo.json exists (bash build-scripts/build.sh native writes it). */
export function zooAvailable() {
  return existsSync(join(ZOO_DIR, 'zoo.json'));
}

/** A skip message for node:test when the zoo has not been built, else false. */
export function zooSkip() {
  return zooAvailable() ? false : `SKIP: ${ZOO_DIR}/zoo.json not found (bash build-scripts/build.sh native writes it)`;
}

function bytesOf(path) {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

let manifest = null;

/** The manifest: { about, models: [{ id, file, format, bytes, description, expect }] }. */
export function zooManifest() {
  manifest ??= JSON.parse(readFileSync(join(ZOO_DIR, 'zoo.json'), 'utf8'));
  return manifest;
}

/**
 * The zoo models: [{ id, kind: 'zoo', format: 'pmx' | 'pmd', extension, path, description, expect,
 * bytes() }]. `expect` holds what the model is built to measure (kneeBendDeg, armDeg, ikOffset,
 * ankleY, hipY, leg, headY, scale, present, absent, ikBones); tests measure it.
 */
export function zooModels() {
  return zooManifest().models.map((m) => {
    const path = join(ZOO_DIR, m.file);
    return { id: m.id, kind: 'zoo', format: m.format, extension: `.${m.format}`, path, description: m.description,
             expect: m.expect, bytes: () => bytesOf(path) };
  });
}

/**
 * Every model a generator must hold on: the zoo (when built), the built-in mannequin (`pm` given:
 * pm.mannequinPmx()) and the shared PMX fixtures (when ../shared/fixtures is there). Same shape as
 * zooModels(); `expect` is null outside the zoo.
 */
export function everyModel(pm, { zoo = true, mannequin = true, fixtures = true } = {}) {
  const out = zoo && zooAvailable() ? zooModels() : [];
  if (mannequin && pm) {
    const bytes = pm.mannequinPmx();
    out.push({ id: 'mannequin', kind: 'mannequin', format: 'pmx', extension: '.pmx', path: null, description: 'the built-in mannequin',
               expect: null, bytes: () => bytes.slice() });
  }
  if (fixtures && fixturesAvailable()) {
    for (const rel of FIXTURE_MODELS) {
      const path = join(FIXTURES, rel);
      out.push({ id: rel.split('/').pop().replace(/\.pmx$/, ''), kind: 'fixture', format: 'pmx', extension: '.pmx', path,
                 description: `shared fixture ${rel}`, expect: null, bytes: () => bytesOf(path) });
    }
  }
  return out;
}
