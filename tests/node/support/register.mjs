// Registers hooks.mjs (extensionless imports for babylon-mmd's esm/ build) in this process.
// Use: `node --import ./tests/node/support/register.mjs ...`, or import this module first and load
// babylon-mmd afterwards with dynamic import() (static imports are resolved before any module of
// the graph runs, so they would not see the hook). babylon.mjs does this for you.
import { register } from 'node:module';

const KEY = Symbol.for('procmotion.tests.resolveHook');
if (!globalThis[KEY]) {
  globalThis[KEY] = true;
  register('./hooks.mjs', import.meta.url);
}
