// Node ESM resolve hook (registered by register.mjs): babylon-mmd's esm/ files import each other
// without file extensions ("./mmdModel" for "./mmdModel.js"), which browsers' bundlers accept and
// Node's ESM loader does not. When a specifier without an extension fails to resolve, retry it with
// ".js" and then "/index.js". Everything else resolves exactly as Node would.

const KNOWN_EXT = /\.(?:[cm]?js|json|wasm|node)$/;

function retryable(err) {
  return err && (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'ERR_UNSUPPORTED_DIR_IMPORT');
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const path = specifier.split(/[?#]/)[0];
    if (!retryable(err) || KNOWN_EXT.test(path) || specifier.startsWith('node:')) throw err;
    for (const suffix of ['.js', '/index.js']) {
      try {
        return await nextResolve(specifier + suffix, context);
      } catch (again) {
        if (!retryable(again)) throw again;
      }
    }
    throw err;
  }
}
