'use strict';
// Loads the compiled addon. SANDGATE_NODE_ADDON points at another build (a sanitizer build, say).
const path = require('node:path');

const file = process.env.SANDGATE_NODE_ADDON || path.join(__dirname, '..', 'build', 'Release', 'sandgate.node');
let native;
try {
  native = require(file);
} catch (cause) {
  throw new Error(`sandgate: cannot load the native addon ${file}; build it with \`npm run build\` in bindings/node`, { cause });
}
module.exports = native;
