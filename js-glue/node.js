// procmotion for Node without a bundler (package.json's "node" export condition): index.js, with the
// .wasm files read from disk where Node has no process.getBuiltinModule (before 20.16), and
// procmotion-all.wasm registered (all.js), so that createProcMotion({ load: 'all' }) loads the one file.
import { readFile } from 'node:fs/promises';

import './all.js';
import { setFileReader } from './loader.js';

setFileReader((url) => readFile(url));

export * from './index.js';
