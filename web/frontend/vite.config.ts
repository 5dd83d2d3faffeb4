import { defineConfig } from 'vite';

// The built page goes straight into the jar's resources; the server serves it from the classpath.
export default defineConfig({
  base: './',
  build: {
    outDir: '../target/classes/org/hetscope/web/assets',
    emptyOutDir: true,
    assetsDir: 'static',
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
  },
});
