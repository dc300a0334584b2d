// Two-bone IK through the glue (pm.solveTwoBoneIk: one ABI call per solve, arrays in and out), on the
// same kind of random leg-sized limbs as the native row (bench/bench_pose.c), 10 000 per run.
import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

function limbs(n) {
  let s = 12345;
  const rnd = () => {
    s ^= s << 13, s >>>= 0, s ^= s >>> 17, s ^= s << 5, s >>>= 0;
    return (s >>> 8) * (2 / 16777216) - 1;
  };
  return Array.from({ length: n }, () => {
    const hip = [rnd(), 10 + rnd(), rnd()];
    const knee = [hip[0] + 0.3 * rnd(), hip[1] - 4.5, hip[2] - 0.5 + 0.3 * rnd()];
    const ankle = [knee[0] + 0.3 * rnd(), knee[1] - 4.5, knee[2] + 0.5 + 0.3 * rnd()];
    const target = [hip[0] + 3 * rnd(), hip[1] - 6 + 3 * rnd(), hip[2] + 3 * rnd()];
    return [hip, knee, ankle, target, [hip[0], hip[1] - 4, hip[2] - 5]];
  });
}

export const impls = {
  async 'procmotion wasm (glue, one call per solve)'() {
    const pm = await createProcMotion({ load: FEATURE_MODULES });
    const cases = limbs(10000);
    return {
      items: cases.length, unit: 'solves', label: 'random leg-sized limbs',
      run: () => {
        let miss = 0;
        for (const c of cases) miss += pm.solveTwoBoneIk(...c).miss;
        return miss;
      },
    };
  },
};
