// procmotion rig analysis (procmotion/rig.h, docs/models.md):
//
//   const rig = pm.analyzeRig(pmxBytes);     // or a skeleton object from pm.readPmx
//   rig.roles.leftLegIk;                     // '左足ＩＫ' (the bone playing the role, by name)
//   rig.legs.left.reach.max;                 // how far MMD's IK stretches the leg (measured)
//   rig.chains[0].restOffset;                // where the IK bone sits relative to its effector
//
// One call reads the model once: roles from the one resolver every module uses, the IK chains as MMD
// solves them, and the rest geometry with the figures MMD's IK decides measured by the pose evaluator.
// Part of procmotion's 'motion' feature module (the analysis runs the pose evaluator's CCD): motion.js
// puts rigMethods on a ProcMotion when pm.loadAsync('motion') has loaded procmotion-motion.wasm.

export const rigMethods = {
  /**
   * Analyse a model's rig. `model`: PMX/PMD bytes (Uint8Array / ArrayBuffer) or a skeleton object
   * shaped like readPmx's result. Returns the JSON object of docs/models.md: { boneCount, naming, roles,
   * roleNamings, missing, humanoid, chains, legs: { left, right }, arms, floorHeight, hipHeight,
   * legLength, footLength, scale }.
   */
  analyzeRig(model) {
    return this._withSkeleton(model, (handle, s) => this._callForJson(s, 'rig', (out, size, err) => this.mod.pm_abi_rig_json(handle, out, size, err)), 'analyzeRig');
  },
};
