import { defineConfig } from 'vitest/config';

// The install routes (npm run test:install): `npm pack` and installs from the tarball, globally and with npx,
// and `npm install <git url>`, which fetches the build's devDependencies and builds. Minutes, and the git
// route needs the npm registry (or a warm npm cache): apart from `npm test`. CI runs both.
export default defineConfig({
  test: {
    include: ['test/install/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // npm installs are heavy on the two cores; one route at a time.
    fileParallelism: false,
    maxWorkers: 1,
  },
});
