// Builds the addon (build/Release/sandgate.node) with cmake-js, offline.
//
// cmake-js downloads Node's headers unless it is pointed at a Node installation that has them; it
// reads that directory from npm's `nodedir` setting (npm_config_nodedir), nothing else. The Node
// running this script has its headers in <prefix>/include/node (Debian and nodesource packages,
// the official tarballs), so that prefix is passed on. NAPI_VERSION is pinned in CMakeLists.txt,
// so the result loads in every Node >= 18 whichever Node built it.
//
// Environment: SANDGATE_NODEDIR (or npm_config_nodedir) to use other headers; SANDGATE_WERROR=1 to
// make warnings errors; SANDGATE_BUILD_JOBS for the parallel level.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

const nodedir = process.env.SANDGATE_NODEDIR || process.env.npm_config_nodedir || dirname(dirname(process.execPath));
if (!existsSync(join(nodedir, 'include', 'node', 'node_api.h'))) {
  console.error(`sandgate: Node's headers are not in ${join(nodedir, 'include', 'node')}.\n` +
    'Install the Node package that ships them (Debian: nodejs from nodesource, or libnode-dev), or set\n' +
    'SANDGATE_NODEDIR to a directory holding include/node/node_api.h. Nothing is downloaded.');
  process.exit(1);
}

const cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
const addonApi = resolve(here, require('node-addon-api').include_dir);
const jobs = process.env.SANDGATE_BUILD_JOBS || String(Math.max(1, availableParallelism()));
const args = [cmakeJs, 'build', '--directory', here, '--out', join(here, 'build'), '--parallel', jobs, '--log-level', 'warn',
  `--CDNODE_ADDON_API_DIR=${addonApi}`];
if (process.env.SANDGATE_WERROR === '1') args.push('--CDSANDGATE_WERROR=ON');

const run = spawnSync(process.execPath, args, {
  cwd: here,
  stdio: 'inherit',
  env: { ...process.env, npm_config_nodedir: nodedir },
});
if (run.status !== 0) {
  console.error(`sandgate: the addon build failed (cmake-js exit ${run.status ?? run.signal})`);
  process.exit(1);
}
if (!existsSync(join(here, 'build', 'Release', 'sandgate.node'))) {
  console.error('sandgate: the build finished but build/Release/sandgate.node is missing');
  process.exit(1);
}
