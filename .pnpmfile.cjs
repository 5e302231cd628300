// pnpm hooks for this workspace.
//
// beforePacking: what `pnpm pack` and `pnpm publish` write as a package's
// package.json. The monorepo's build scripts and devDependencies mean nothing
// to a user (and devDependencies name workspace-only packages), so the
// published manifest carries neither; everything else is kept as written.
module.exports = {
  hooks: {
    beforePacking(pkg) {
      delete pkg.scripts;
      delete pkg.devDependencies;
      return pkg;
    },
  },
};
