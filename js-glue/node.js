// procmotion for Node without a bundler (package.json's "node" export condition): index.js, with the
// .wasm files read from disk where Node has no process.getBuiltinModule (before 20.16).
import { readFile } from 'node:fs/promises';

import { setFileReader } from './loader.js';

setFileReader((url) => readFile(url));

export * from './index.js';
