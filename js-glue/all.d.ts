// procmotion/all: the main entry's API (index.d.ts); its createProcMotion loads procmotion-all.wasm,
// every module in one file (load: 'all' unless options.load says otherwise).
export * from './index.js';
