// procmotion/all for Node without a bundler (package.json's "node" export condition): all.js, with the
// Node entry's file reader (node.js) for Node before 20.16.
import './node.js';

export * from './all.js';
