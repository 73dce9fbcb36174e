'use strict';
// Loads the compiled addon through node-gyp-build: a local build (build/Release/sandgate.node, what
// `npm run build` makes in a checkout) first, else the prebuilt addon shipped in the npm package for
// this platform (prebuilds/linux-x64/node.napi.glibc.node). SANDGATE_NODE_ADDON names another file
// (a sanitizer build, say).
const path = require('node:path');

const root = path.join(__dirname, '..');
let native;
try {
  native = process.env.SANDGATE_NODE_ADDON ? require(process.env.SANDGATE_NODE_ADDON) : require('node-gyp-build')(root);
} catch (cause) {
  throw new Error('sandgate: cannot load the native addon; build it with `npm run build` in the package ' +
    `directory (${root}), which needs CMake, a C++20 compiler and yaml-cpp, RE2 and fmt`, { cause });
}
module.exports = native;
