// `npm install` of the package: use the prebuilt addon when one loads on this machine (node-gyp-build
// picks prebuilds/<platform>-<arch>/ by platform, architecture, libc and Node-API), else build from
// source with scripts/build.mjs (cmake-js; needs CMake, a C++20 compiler and the yaml-cpp, RE2 and
// fmt development packages). `npm install --build-from-source` (npm_config_build_from_source) skips
// the prebuilt addon.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

const fromSource = ['true', '1', 'sandgate'].includes(process.env.npm_config_build_from_source ?? '');
if (!fromSource) {
  try {
    const file = require('node-gyp-build').resolve(here);
    require(file);
    console.log(`sandgate: using the addon ${file}`);
    process.exit(0);
  } catch (err) {
    console.log(`sandgate: no usable prebuilt addon (${String(err.message).split('\n')[0]}); building from source`);
  }
}
const run = spawnSync(process.execPath, [join(here, 'scripts', 'build.mjs')], { cwd: here, stdio: 'inherit' });
process.exit(run.status ?? 1);
