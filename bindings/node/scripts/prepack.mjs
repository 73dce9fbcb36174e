// `npm pack` / `npm publish` (the prepack script): puts into the package
//   prebuilds/<platform>-<arch>/node.napi.<libc>.node — the addon built here (scripts/build.mjs,
//     incremental), stripped, with the shared libraries it needs beyond glibc and libstdc++ beside
//     it; node-gyp-build loads it on any Node >= 18 (Node-API 8) of this platform, so
//     `npm install` compiles nothing;
//   vendor/sandgate/ — the core's sources, the schemas and VERSION, and vendor/valijson/ — valijson's
//     headers and copyright (from .deps/valijson, see scripts/install-deps.sh): what the from-source
//     fallback (scripts/install.mjs → build.mjs) needs where no prebuilt addon matches.
// Both directories are git-ignored build output; this script recreates them on every pack.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = join(here, '..', '..');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: here, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`sandgate prepack: ${cmd} ${args.join(' ')} failed`);
    process.exit(1);
  }
}

if (!existsSync(join(repo, 'core', 'use_core.cmake'))) {
  console.error('sandgate prepack: run `npm pack` in bindings/node of a sandgate checkout');
  process.exit(1);
}

// The prebuilt addon.
run(process.execPath, [join(here, 'scripts', 'build.mjs')]);
const libc = process.report?.getReport()?.header?.glibcVersionRuntime ? 'glibc' : 'musl';
const prebuilds = join(here, 'prebuilds');
rmSync(prebuilds, { recursive: true, force: true });
const dir = join(prebuilds, `${process.platform}-${process.arch}`);
mkdirSync(dir, { recursive: true });
const addon = join(dir, `node.napi.${libc}.node`);
copyFileSync(join(here, 'build', 'Release', 'sandgate.node'), addon);
if (spawnSync('strip', ['--version']).status === 0) run('strip', ['--strip-unneeded', addon]);
// The shared yaml-cpp, RE2 or fmt the addon links (Debian's archives of those are -fPIE, so a shared
// addon cannot take them statically): copied next to it, where its $ORIGIN run path finds them, so
// the prebuilt addon needs nothing beyond glibc and libstdc++ — what auditwheel does for the wheel.
const ldd = spawnSync('ldd', [addon], { encoding: 'utf8' });
for (const m of (ldd.stdout ?? '').matchAll(/^\s*(lib(?:yaml-cpp|re2|fmt)\.so[.\d]*) => (\S+)/gm)) {
  copyFileSync(realpathSync(m[2]), join(dir, m[1]));
  console.log(`sandgate prepack: carrying ${m[1]} (from ${m[2]})`);
}

// The sources for a from-source build.
const vendor = join(here, 'vendor');
rmSync(vendor, { recursive: true, force: true });
const core = join(vendor, 'sandgate', 'core');
mkdirSync(core, { recursive: true });
copyFileSync(join(repo, 'VERSION'), join(vendor, 'sandgate', 'VERSION'));
for (const f of ['CMakeLists.txt', 'use_core.cmake', 'embed_schemas.cmake', 'sandgateConfig.cmake.in']) {
  copyFileSync(join(repo, 'core', f), join(core, f));
}
cpSync(join(repo, 'core', 'include'), join(core, 'include'), { recursive: true });
cpSync(join(repo, 'core', 'src'), join(core, 'src'), { recursive: true });
mkdirSync(join(vendor, 'sandgate', 'schema'));
for (const f of readdirSync(join(repo, 'schema')).filter((n) => n.endsWith('.schema.json'))) {
  copyFileSync(join(repo, 'schema', f), join(vendor, 'sandgate', 'schema', f));
}
const valijson = join(repo, '.deps', 'valijson');
if (!existsSync(join(valijson, 'include', 'valijson', 'validator.hpp')) || !existsSync(join(valijson, 'copyright'))) {
  console.error('sandgate prepack: .deps/valijson is missing; run scripts/install-deps.sh');
  process.exit(1);
}
cpSync(join(valijson, 'include'), join(vendor, 'valijson', 'include'), { recursive: true });
copyFileSync(join(valijson, 'copyright'), join(vendor, 'valijson', 'copyright'));
console.log(`sandgate prepack: ${addon.slice(here.length + 1)} and vendor/ ready`);
